/*
 * An independent, single-threaded re-implementation of seed 003's cunning ant system with
 * tabu search (Tsutsui & Fujimoto, MEDAL report 2011005), written from the paper's text
 * alone and sharing no code with qapgpu, to tell our implementation's behaviour from the
 * algorithm's (as tsutsui_ga.c does for seeds 000 and 001).
 *
 * From the text (Fig. 2, §3, §4.2, Table 4):
 *   - m units, each with its best ant ant*_k; step 3-4: random ants improved by TS.
 *   - Step 6: the c-ant of unit k copies its donor ant*_k and re-samples E(l_s) = n*gamma
 *     facilities (each with probability gamma) onto the freed locations by tau.
 *   - Step 7-8: TS on the c-ant; it replaces ant*_k when not worse.
 *   - Step 5: tau <- rho*tau + sum_k 1/C*_k on ant*_k's assignments, held in
 *     [tau_min, tau_max] as in MMAS. The text gives neither bound nor tau_0; here
 *     tau_max = m / ((1 - rho) C_best), tau_0 = tau_max, and tau_min = tau_max / (2n),
 *     MAX-MIN Ant System's rule for the QAP (Stutzle & Hoos 2000) -- not qapgpu's p_best.
 *   - TS (§4.2): best admissible swap each iteration, even if it worsens; a swap is taboo
 *     when both facilities would return to locations they left within the tenure; tenure
 *     T_list * r^3, r uniform in [0, 1), one draw per iteration; aspiration: a taboo swap
 *     is admissible when it beats the best cost of this search. Move costs by Eq. (4), kept
 *     in a table and updated in O(1) for swaps disjoint from the last one (Taillard's
 *     update; the paper's Eq. (5) as printed has b_phi'(u)phi'(v) where b_phi'(v)phi'(s)
 *     belongs, in its last factor).
 *   - Stop: IT_TOTAL local-search iterations in all, the target cost, or LIMIT CPU seconds.
 *   - LS 2opt (§6.3, Table 6): best-improvement 2-opt, until no swap improves or IT_TS
 *     iterations; T_LIST unused.
 *
 * Usage: tsutsui_aco FILE.dat TARGET SEED IT_TOTAL M RHO GAMMA IT_TS T_LIST [ts|2opt LIMIT]
 *   Table 4: class (i) M = n, RHO 0.5, GAMMA 0.4, IT_TS = 16n, T_LIST = n;
 *            class (iv) M = 4n, RHO 0.5, GAMMA 0.5, IT_TS = 4n, T_LIST = n; IT_TOTAL = 50000n.
 * Prints: hit|miss, colony iterations, local-search iterations, seconds (CPU time), best cost.
 * Build: gcc -O3 -o tsutsui_aco tsutsui_aco.c -lm   (scripts/reference-aco.sh runs Table 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rng.h"

#define MAXN 256
typedef long long i64;

static int n;
static i64 *A, *B;

#define a(i, j) A[(i) * n + (j)]
#define b(i, j) B[(i) * n + (j)]

static i64 cost(const int *p) {
    i64 c = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) c += a(i, j) * b(p[i], p[j]);
    return c;
}

/* Eq. (4): the cost change of swapping the locations of facilities r and s. */
static i64 delta_full(const int *p, int r, int s) {
    int pr = p[r], ps = p[s];
    i64 d = a(r, r) * (b(ps, ps) - b(pr, pr)) + a(r, s) * (b(ps, pr) - b(pr, ps)) +
            a(s, r) * (b(pr, ps) - b(ps, pr)) + a(s, s) * (b(pr, pr) - b(ps, ps));
    for (int k = 0; k < n; k++) {
        if (k == r || k == s) continue;
        int pk = p[k];
        d += a(k, r) * (b(pk, ps) - b(pk, pr)) + a(k, s) * (b(pk, pr) - b(pk, ps)) +
             a(r, k) * (b(ps, pk) - b(pr, pk)) + a(s, k) * (b(pr, pk) - b(ps, pk));
    }
    return d;
}

/* Delta(u, v) after r and s were swapped in p ({u, v} and {r, s} disjoint), in O(1). */
static i64 delta_after(const int *p, i64 old, int r, int s, int u, int v) {
    return old + (a(r, u) - a(r, v) + a(s, v) - a(s, u)) *
                     (b(p[s], p[u]) - b(p[s], p[v]) + b(p[r], p[v]) - b(p[r], p[u])) +
           (a(u, r) - a(v, r) + a(v, s) - a(u, s)) *
               (b(p[u], p[s]) - b(p[v], p[s]) + b(p[v], p[r]) - b(p[u], p[r]));
}

static i64 *dtab;      /* n*n, upper triangle used */
static long *tabu;     /* tabu[f*n + loc]: last iteration at which f may not return to loc */
static i64 target;
static long long ts_total;

static void update_deltas(const int *cur, int r, int s) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (i == r || i == s || j == r || j == s) dtab[i * n + j] = delta_full(cur, i, j);
            else dtab[i * n + j] = delta_after(cur, dtab[i * n + j], r, s, i, j);
        }
}

/* Best-improvement 2-opt from p (cost *c): at most `iters` swaps, each the best improving. */
static void two_opt(int *p, i64 *c, int iters) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) dtab[i * n + j] = delta_full(p, i, j);
    for (int it = 0; it < iters; it++) {
        int r = -1, s = -1;
        i64 md = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (dtab[i * n + j] < md) { r = i; s = j; md = dtab[i * n + j]; }
        ts_total++;
        if (r < 0) break;
        int tmp = p[r]; p[r] = p[s]; p[s] = tmp;
        *c += md;
        if (*c <= target) break;
        update_deltas(p, r, s);
    }
}

/* Tabu search from p (cost *c) for `iters` iterations; p and *c become the best met. */
static void tabu_search(int *p, i64 *c, int iters, int tlist) {
    int cur[MAXN];
    memcpy(cur, p, n * sizeof(int));
    i64 cc = *c, best = *c;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) dtab[i * n + j] = delta_full(cur, i, j);
    for (int i = 0; i < n * n; i++) tabu[i] = -1;
    for (int it = 0; it < iters; it++) {
        int r = -1, s = -1, fr = -1, fs = -1;
        i64 md = 0, fd = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                i64 d = dtab[i * n + j];
                int taboo = tabu[i * n + cur[j]] >= it && tabu[j * n + cur[i]] >= it;
                if ((!taboo || cc + d < best) && (r < 0 || d < md)) { r = i; s = j; md = d; }
                if (fr < 0 || d < fd) { fr = i; fs = j; fd = d; }
            }
        if (r < 0) { r = fr; s = fs; md = fd; } /* every swap taboo: the least bad one */
        double x = unif();
        long t = (long)(tlist * x * x * x);
        tabu[r * n + cur[r]] = it + t;
        tabu[s * n + cur[s]] = it + t;
        int tmp = cur[r]; cur[r] = cur[s]; cur[s] = tmp;
        cc += md;
        ts_total++;
        if (cc < best) { best = cc; memcpy(p, cur, n * sizeof(int)); }
        if (best <= target) break;
        update_deltas(cur, r, s);
    }
    *c = best;
}

static void shuffle(int *v, int k) {
    for (int i = k - 1; i > 0; i--) { int j = below(i + 1); int t = v[i]; v[i] = v[j]; v[j] = t; }
}

static i64 readnum(FILE *f) {
    i64 x;
    if (fscanf(f, "%lld", &x) != 1) { fprintf(stderr, "bad instance\n"); exit(2); }
    return x;
}

int main(int argc, char **argv) {
    if (argc != 10 && argc != 12) {
        fprintf(stderr, "usage: tsutsui_aco FILE TARGET SEED IT_TOTAL M RHO GAMMA IT_TS T_LIST [ts|2opt LIMIT]\n");
        return 2;
    }
    if (argc == 12 && strcmp(argv[10], "ts") != 0 && strcmp(argv[10], "2opt") != 0) {
        fprintf(stderr, "tsutsui_aco: the local search is ts or 2opt, not %s\n", argv[10]);
        return 2;
    }
    int use2opt = argc == 12 && strcmp(argv[10], "2opt") == 0;
    double limit = argc == 12 ? atof(argv[11]) : 0;
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    n = (int)readnum(f);
    if (n < 2 || n > MAXN) { fprintf(stderr, "n = %d out of range\n", n); return 2; }
    A = malloc(sizeof(i64) * n * n); B = malloc(sizeof(i64) * n * n);
    for (int i = 0; i < n * n; i++) A[i] = readnum(f);
    for (int i = 0; i < n * n; i++) B[i] = readnum(f);
    fclose(f);
    target = atoll(argv[2]);
    st[0] = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)atoll(argv[3]);
    st[1] = 0xD1B54A32D192ED03ULL * (1 + (unsigned long long)atoll(argv[3]));
    for (int i = 0; i < 20; i++) rnd();
    long long it_total = atoll(argv[4]);
    int m = atoi(argv[5]), its = atoi(argv[8]), tlist = atoi(argv[9]);
    double rho = atof(argv[6]), gamma = atof(argv[7]);
    if (it_total < 1 || m < 1 || its < 1 || tlist < 0 || !(rho >= 0 && rho < 1) || !(gamma >= 0 && gamma <= 1) ||
        (use2opt && !(limit > 0))) {
        fprintf(stderr, "tsutsui_aco: IT_TOTAL, M and IT_TS from 1, T_LIST from 0, RHO in [0, 1), GAMMA in [0, 1], LIMIT above 0\n");
        return 2;
    }
    dtab = malloc(sizeof(i64) * n * n);
    tabu = malloc(sizeof(long) * n * n);
    int *ants = malloc(sizeof(int) * m * n), *cant = malloc(sizeof(int) * n);
    i64 *acost = malloc(sizeof(i64) * m);
    double *tau = malloc(sizeof(double) * n * n);
    clock_t t0 = clock();
    i64 best = -1;
    long colony = 0;
    /* Steps 3-4: random ants, each improved. */
    for (int k = 0; k < m && (best < 0 || best > target); k++) {
        int *p = ants + k * n;
        for (int i = 0; i < n; i++) p[i] = i;
        shuffle(p, n);
        acost[k] = cost(p);
        if (use2opt) two_opt(p, &acost[k], its);
        else tabu_search(p, &acost[k], its, tlist);
        if (best < 0 || acost[k] < best) best = acost[k];
    }
    colony = 1;
    int first = 1;
    while (best > target && ts_total < it_total &&
           (limit <= 0 || (double)(clock() - t0) / CLOCKS_PER_SEC < limit)) {
        /* Step 5. */
        double tmax = m / ((1.0 - rho) * (double)best), tmin = tmax / (2.0 * n);
        for (int i = 0; i < n * n; i++) {
            if (first) tau[i] = tmax;
            tau[i] *= rho;
        }
        first = 0;
        for (int k = 0; k < m; k++)
            for (int i = 0; i < n; i++) tau[i * n + ants[k * n + i]] += 1.0 / (double)acost[k];
        for (int i = 0; i < n * n; i++) tau[i] = tau[i] < tmin ? tmin : tau[i] > tmax ? tmax : tau[i];
        /* Steps 6-8. */
        for (int k = 0; k < m && best > target; k++) {
            int *d = ants + k * n, pick[MAXN], freel[MAXN], ls = 0;
            memcpy(cant, d, n * sizeof(int));
            for (int i = 0; i < n; i++)
                if (unif() < gamma) pick[ls++] = i;
            shuffle(pick, ls);
            for (int j = 0; j < ls; j++) freel[j] = d[pick[j]];
            for (int j = 0, left = ls; j < ls; j++, left--) {
                const double *row = tau + pick[j] * n;
                double sum = 0, acc = 0;
                for (int q = 0; q < left; q++) sum += row[freel[q]];
                double x = unif() * sum;
                int q = 0;
                for (acc = row[freel[0]]; acc <= x && q + 1 < left;) acc += row[freel[++q]];
                cant[pick[j]] = freel[q];
                freel[q] = freel[left - 1];
            }
            i64 c = cost(cant);
            if (use2opt) two_opt(cant, &c, its);
            else tabu_search(cant, &c, its, tlist);
            if (c <= acost[k]) { acost[k] = c; memcpy(d, cant, n * sizeof(int)); }
            if (c < best) best = c;
        }
        colony++;
    }
    printf("%s %ld %lld %.3f %lld\n", best <= target ? "hit" : "miss", colony, ts_total,
           (double)(clock() - t0) / CLOCKS_PER_SEC, best);
    return 0;
}
