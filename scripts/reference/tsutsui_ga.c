/*
 * An independent, single-threaded re-implementation of the GA of seeds 000 and 001
 * (Tsutsui & Fujimoto, GECCO 2009 and CEC 2010), written from the papers' text alone and
 * sharing no code with qapgpu, to tell our implementation's behaviour from the algorithm's.
 *
 * Base model (both papers, Fig. 4 / Fig. 3): for each individual i, a partner j != i at
 * random; one child by PMX (the code of seed 001's Fig. 7: start from the parent, swap the
 * partner's segment in); swap mutation of the child with probability p_m = 0.1; the child
 * replaces its parent when strictly better. Subpopulations of 128.
 *
 *   islands K FRACTION INTERVAL   30*K subpopulations; every INTERVAL generations FRACTION
 *                                 of all individuals are exchanged at random (GA-1: 1 500,
 *                                 GA-2: 0.05 50)
 *   single RESTART                one subpopulation; RESTART=1: every 50 generations, when
 *                                 B_count >= ceil(0.6*128) individuals share the best cost,
 *                                 all are drawn anew (seed 001, Table I)
 *
 * Usage: tsutsui_ga FILE.dat TARGET SEED LIMIT_S islands K FRACTION INTERVAL
 *        tsutsui_ga FILE.dat TARGET SEED LIMIT_S single RESTART
 * Prints: hit|miss, generations, seconds (CPU time), restarts, best cost.
 * Build: gcc -O3 -o tsutsui_ga tsutsui_ga.c   (scripts/reference-ga.sh runs the protocols)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rng.h"

#define SUB 128
#define MAXN 64

static int n;
static long A[MAXN * MAXN], B[MAXN * MAXN];

static long cost(const unsigned char *p) {
    long c = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) c += A[i * n + j] * B[p[i] * n + p[j]];
    return c;
}

static void draw(unsigned char *p) {
    for (int i = 0; i < n; i++) p[i] = (unsigned char)i;
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1);
        unsigned char t = p[i]; p[i] = p[j]; p[j] = t;
    }
}

static void swap_rows(unsigned char *pop, long *c, int x, int y) {
    unsigned char t[MAXN];
    memcpy(t, pop + x * n, n); memcpy(pop + x * n, pop + y * n, n); memcpy(pop + y * n, t, n);
    long tc = c[x]; c[x] = c[y]; c[y] = tc;
}

/* One generation of subpopulation `sub` (rows pop[sub*SUB ...]); returns its best cost. */
static long generation(unsigned char *pop, long *c, unsigned char *work, long *wc, int sub) {
    unsigned char *P = pop + sub * SUB * n, *W = work + sub * SUB * n;
    long *C = c + sub * SUB, *CW = wc + sub * SUB, best = -1;
    for (int i = 0; i < SUB; i++) {
        int j = below(SUB - 1);
        if (j >= i) j++;
        unsigned char *p1 = P + i * n, *p2 = P + j * n, *ch = W + i * n;
        int c1 = below(n + 1), c2 = below(n);
        if (c2 >= c1) c2++;
        if (c1 > c2) { int t = c1; c1 = c2; c2 = t; }
        memcpy(ch, p1, n);
        for (int x = c1; x < c2; x++)
            for (int y = 0; y < n; y++)
                if (p2[x] == ch[y]) { unsigned char t = ch[x]; ch[x] = ch[y]; ch[y] = t; break; }
        if (unif() < 0.1) {
            int a = below(n), b = below(n - 1);
            if (b >= a) b++;
            unsigned char t = ch[a]; ch[a] = ch[b]; ch[b] = t;
        }
        CW[i] = cost(ch);
    }
    for (int i = 0; i < SUB; i++) {
        if (CW[i] < C[i]) { C[i] = CW[i]; memcpy(P + i * n, W + i * n, n); }
        if (best < 0 || C[i] < best) best = C[i];
    }
    return best;
}

int main(int argc, char **argv) {
    const char *usage = "usage: tsutsui_ga FILE.dat TARGET SEED LIMIT_S islands K FRACTION INTERVAL\n"
                        "       tsutsui_ga FILE.dat TARGET SEED LIMIT_S single RESTART(0|1)\n";
    int islands = argc == 9 && strcmp(argv[5], "islands") == 0;
    if (!islands && !(argc == 7 && strcmp(argv[5], "single") == 0)) { fputs(usage, stderr); return 2; }
    char *end;
    long target = strtol(argv[2], &end, 10);
    if (*end) { fprintf(stderr, "TARGET = %s: not an integer\n", argv[2]); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    if (fscanf(f, "%d", &n) != 1 || n < 2 || n > MAXN) { fprintf(stderr, "%s: n must be in 2..64\n", argv[1]); return 2; }
    for (int i = 0; i < 2 * n * n; i++)
        if (fscanf(f, "%ld", i < n * n ? &A[i] : &B[i - n * n]) != 1) { fprintf(stderr, "%s: short file\n", argv[1]); return 2; }
    int seed = atoi(argv[3]);
    double limit = atof(argv[4]);
    int blocks = islands ? 30 * atoi(argv[6]) : 1;
    double fraction = islands ? atof(argv[7]) : 1.0;
    int interval = islands ? atoi(argv[8]) : 500;
    int restart = !islands && atoi(argv[6]);
    if (blocks < 1 || blocks > 30 * 64 || !(fraction > 0 && fraction <= 1) || interval < 1 || !(limit > 0)) {
        fprintf(stderr, "K must be in 1..64, FRACTION in (0, 1], INTERVAL and LIMIT_S above 0\n");
        return 2;
    }
    st[0] = 0x9E3779B97F4A7C15ULL * (unsigned long long)(seed + 1);
    st[1] = 0xD1B54A32D192ED03ULL ^ (unsigned long long)seed;
    for (int i = 0; i < 20; i++) rnd();

    int total = blocks * SUB;
    unsigned char *pop = malloc((size_t)total * n), *work = malloc((size_t)total * n);
    long *c = malloc(sizeof(long) * total), *wc = malloc(sizeof(long) * total);
    int *slot = malloc(sizeof(int) * total), *order = malloc(sizeof(int) * total);
    for (int k = 0; k < total; k++) { draw(pop + k * n); c[k] = cost(pop + k * n); }
    clock_t t0 = clock();
    long gen = 0, restarts = 0, best = -1;
    for (;;) {
        for (int b = 0; b < blocks; b++) {
            long sub_best = generation(pop, c, work, wc, b);
            if (best < 0 || sub_best < best) best = sub_best;
        }
        gen++;
        double el = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (best <= target) { printf("hit %ld %.3f %ld %ld\n", gen, el, restarts, best); return 0; }
        if (el > limit) { printf("miss %ld %.3f %ld %ld\n", gen, el, restarts, best); return 0; }
        if (islands && gen % interval == 0) {
            /* Exchange `movers` individuals drawn at random: a random selection, then a
               random permutation among the selected (all of them: a full shuffle). */
            int movers = (int)(fraction * total + 0.5);
            if (movers < 2) movers = 2;
            if (movers >= total) {
                for (int k = total - 1; k > 0; k--) swap_rows(pop, c, k, below(k + 1));
            } else {
                /* idx[0..movers): a random selection (partial Fisher-Yates); then their rows
                   are permuted among their own slots through `work`. */
                for (int k = 0; k < total; k++) slot[k] = k;
                for (int k = 0; k < movers; k++) { int j = k + below(total - k), t = slot[k]; slot[k] = slot[j]; slot[j] = t; }
                for (int k = 0; k < movers; k++) order[k] = slot[k];
                for (int k = movers - 1; k > 0; k--) { int j = below(k + 1), t = order[k]; order[k] = order[j]; order[j] = t; }
                for (int k = 0; k < movers; k++) { memcpy(work + k * n, pop + order[k] * n, n); wc[k] = c[order[k]]; }
                for (int k = 0; k < movers; k++) { memcpy(pop + slot[k] * n, work + k * n, n); c[slot[k]] = wc[k]; }
            }
        }
        if (restart && gen % 50 == 0) {
            long sub_best = c[0];
            int count = 0;
            for (int i = 1; i < SUB; i++) if (c[i] < sub_best) sub_best = c[i];
            for (int i = 0; i < SUB; i++) count += c[i] == sub_best;
            if (count >= 77) {
                restarts++;
                for (int k = 0; k < SUB; k++) { draw(pop + k * n); c[k] = cost(pop + k * n); }
            }
        }
    }
}
