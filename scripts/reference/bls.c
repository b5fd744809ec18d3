/*
 * Breakout local search for the QAP (Benlic & Hao, Applied Mathematics and Computation 219,
 * 4800-4815, 2013), single-threaded, written for qapgpu's comparisons and sharing no code
 * with it: a leading CPU method on tai*a run on the same machine as our GPU runs, for the
 * same wall time (scripts/reference-bls.sh).
 *
 * The algorithm, with the parameter values and rules of the BLS code its authors distributed
 * (U. Benlic, 2012):
 *   - Descent: the best swap while it improves (steepest descent), move costs kept in a table
 *     and updated in O(1) for swaps disjoint from the last one (Taillard's update).
 *   - Jump magnitude L at each local optimum: L0 = max(5, ceil(0.15 n)) when the descent
 *     reached a new local optimum; L + 1 when it fell back to the one before; once more than
 *     T = 2500 escapes have passed without a new best, a strong jump of n * U[0.40, 0.60) and
 *     the count restarts.
 *   - Perturbation: L moves. With probability max(exp(-w / T), P0), P0 = 0.75 (w: escapes to
 *     a new local optimum since the last new best; a fall-back does not count), all L are
 *     directed: the best swap not tabu (as in the authors' code, a swap made at move k is
 *     tabu while k + 0.7 n + U[0, 0.2 n) is not below the move count, the U drawn afresh at
 *     each check, so the tenure is near 0.7 n; a tabu swap that beats the best cost is
 *     allowed; where none is admissible the move count still advances). Otherwise each of
 *     the L is recency-based with probability Q = 0.3 (the swap made longest ago), else
 *     random. Directed and random moves skip swaps that give back the local optimum's cost.
 *     A swap made at the start is never tabu. A descent of no step that ends at a new cost
 *     (after a jump) leaves L as it was, as in the authors' code.
 *   - Stop: LIMIT wall-clock seconds, or the target cost.
 *
 * Usage: bls FILE.dat TARGET SEED LIMIT
 * Prints: hit|miss, seconds to the best, seconds in all, moves, best cost (re-costed).
 * Build: gcc -O3 -o bls bls.c -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rng.h"

#define MAXN 1024
typedef long long i64;

static int n;
static i64 *A, *B, *delta; /* delta[i * n + j], i < j: the cost change of swapping i and j */
static long *last;         /* last[i * n + j]: the move at which swap (i, j) was last made */
static int p[MAXN], best_p[MAXN];
static i64 cur, best;
static int stale; /* local optima since the last new best */
static long moves;
static double t0, t_best;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define a(i, j) A[(i) * n + (j)]
#define b(i, j) B[(i) * n + (j)]

static i64 cost_of(const int *q) {
    i64 c = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) c += a(i, j) * b(q[i], q[j]);
    return c;
}

/* The cost change of swapping i and j in p, in O(n). */
static i64 full_delta(int i, int j) {
    int pi = p[i], pj = p[j];
    i64 d = (a(i, i) - a(j, j)) * (b(pj, pj) - b(pi, pi)) + (a(i, j) - a(j, i)) * (b(pj, pi) - b(pi, pj));
    for (int k = 0; k < n; k++) {
        if (k == i || k == j) continue;
        int pk = p[k];
        d += (a(k, i) - a(k, j)) * (b(pk, pj) - b(pk, pi)) + (a(i, k) - a(j, k)) * (b(pj, pk) - b(pi, pk));
    }
    return d;
}

/* Swap r and s, then bring every move cost up to date. */
static void make_move(int r, int s) {
    cur += delta[r * n + s];
    int t = p[r];
    p[r] = p[s];
    p[s] = t;
    last[r * n + s] = moves++;
    int pr = p[r], ps = p[s];
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++) {
            if (i == r || i == s || j == r || j == s) {
                delta[i * n + j] = full_delta(i, j);
            } else {
                int pi = p[i], pj = p[j];
                delta[i * n + j] += (a(r, i) - a(r, j) + a(s, j) - a(s, i)) * (b(ps, pi) - b(ps, pj) + b(pr, pj) - b(pr, pi)) +
                                    (a(i, r) - a(j, r) + a(j, s) - a(i, s)) * (b(pi, ps) - b(pj, ps) + b(pj, pr) - b(pi, pr));
            }
        }
    if (cur < best) {
        best = cur;
        t_best = now() - t0;
        stale = 0;
        for (int i = 0; i < n; i++) best_p[i] = p[i];
    }
}

/* One steepest-descent step; 0 at a local optimum. */
static int descend(void) {
    int bi = -1, bj = -1;
    i64 bd = 0;
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++)
            if (delta[i * n + j] < bd) { bd = delta[i * n + j]; bi = i; bj = j; }
    if (bi < 0) return 0;
    make_move(bi, bj);
    return 1;
}

/* The best admissible swap (not tabu, or beating the best), not back to cost `optimum`. */
static void directed_move(i64 optimum) {
    int bi = -1, bj = -1;
    i64 bd = 0;
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++) {
            i64 d = delta[i * n + j];
            if (cur + d == optimum || (bi >= 0 && d >= bd)) continue;
            long tenure = (long)(0.7 * n) + below((int)(0.2 * n) > 0 ? (int)(0.2 * n) : 1);
            if (last[i * n + j] + tenure < moves || cur + d < best) { bd = d; bi = i; bj = j; }
        }
    if (bi >= 0) make_move(bi, bj);
    else moves++; /* the tabu state ages all the same, as in the authors' code */
}

static void recency_move(void) {
    int bi = 0, bj = 1;
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++)
            if (last[i * n + j] < last[bi * n + bj]) { bi = i; bj = j; }
    make_move(bi, bj);
}

static void random_move(i64 optimum) {
    for (int tries = 0; tries < 64 * n; tries++) {
        int i = below(n), j = below(n);
        if (i == j) continue;
        if (i > j) { int t = i; i = j; j = t; }
        if (cur + delta[i * n + j] == optimum) continue;
        make_move(i, j);
        return;
    }
}

static i64 readnum(FILE *f) {
    i64 x;
    if (fscanf(f, "%lld", &x) != 1) { fprintf(stderr, "bls: bad instance file\n"); exit(2); }
    return x;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: bls FILE.dat TARGET SEED LIMIT\n");
        return 2;
    }
    /* The arguments first: a wrong one ends the run before the file is read. */
    char *end;
    i64 target = strtoll(argv[2], &end, 10);
    if (*argv[2] == 0 || *end) { fprintf(stderr, "bls: TARGET = '%s': a whole number\n", argv[2]); return 2; }
    unsigned long long seed = strtoull(argv[3], &end, 10);
    if (*argv[3] == 0 || *end) { fprintf(stderr, "bls: SEED = '%s': a whole number\n", argv[3]); return 2; }
    double limit = strtod(argv[4], &end);
    if (*argv[4] == 0 || *end || !(limit > 0)) { fprintf(stderr, "bls: LIMIT = '%s': seconds above 0\n", argv[4]); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    n = (int)readnum(f);
    if (n < 5 || n > MAXN) { fprintf(stderr, "bls: n = %d, not in 5 .. %d\n", n, MAXN); return 2; }
    A = malloc(sizeof(i64) * n * n);
    B = malloc(sizeof(i64) * n * n);
    delta = calloc((size_t)n * n, sizeof(i64));
    last = malloc(sizeof(long) * n * n);
    if (!A || !B || !delta || !last) { fprintf(stderr, "bls: out of memory\n"); return 2; }
    for (int i = 0; i < n * n; i++) last[i] = -2L * n; /* nothing tabu at the start */
    for (int i = 0; i < n * n; i++) A[i] = readnum(f);
    for (int i = 0; i < n * n; i++) B[i] = readnum(f);
    fclose(f);
    st[0] = 0x9E3779B97F4A7C15ULL ^ seed;
    st[1] = 0xD1B54A32D192ED03ULL * (1 + seed);
    for (int i = 0; i < 20; i++) rnd();

    t0 = now();
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) { int j = below(i + 1), t = p[i]; p[i] = p[j]; p[j] = t; }
    cur = best = cost_of(p);
    for (int i = 0; i < n; i++) best_p[i] = p[i];
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++) delta[i * n + j] = full_delta(i, j);

    const int T = 2500;
    const double P0 = 0.75, Q = 0.3;
    int l0 = (int)ceil(0.15 * n);
    if (l0 < 5) l0 = 5;
    int jump = l0;
    i64 previous = cur;
    while (best > target && now() - t0 < limit) {
        int steps = 0;
        while (descend()) steps++;
        /* The jump: strong after T local optima without a new best, else by the cycle. */
        if (stale > T) {
            stale = 0;
            jump = (int)(n * (0.40 + below(20) / 100.0));
        } else if (steps > 0 && cur != previous) {
            stale++;
            jump = l0;
        } else if (cur == previous) {
            jump++;
        }
        previous = cur;
        double directed = exp(-(double)stale / T);
        if (directed < P0) directed = P0;
        int is_directed = unif() < directed;
        i64 optimum = cur;
        for (int k = 0; k < jump && best > target; k++) {
            if (is_directed) directed_move(optimum);
            else if (unif() < Q) recency_move();
            else random_move(optimum);
        }
    }
    double total = now() - t0;
    i64 check = cost_of(best_p);
    if (check != best) { fprintf(stderr, "bls: the best cost %lld re-costs to %lld\n", best, check); return 1; }
    printf("%s %.3f %.3f %ld %lld\n", best <= target ? "hit" : "miss", t_best, total, moves, best);
    return 0;
}
