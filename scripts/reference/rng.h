/* The random numbers of the reference implementations: xorshift128+ (Vigna), its state
 * seeded by each program. Header-only: each program is one file built with `gcc -O3`. */
#ifndef REFERENCE_RNG_H
#define REFERENCE_RNG_H

static unsigned long long st[2];

static unsigned long long rnd(void) {
    unsigned long long s1 = st[0];
    const unsigned long long s0 = st[1];
    st[0] = s0;
    s1 ^= s1 << 23;
    st[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
    return st[1] + s0;
}
/* Uniform in 0 .. m - 1. */
static int below(int m) { return (int)((rnd() >> 33) % (unsigned long long)m); }
/* Uniform in [0, 1). */
static double unif(void) { return (rnd() >> 11) * (1.0 / 9007199254740992.0); }

#endif
