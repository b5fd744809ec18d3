"""Writes a random QAPLIB instance to stdout: n (default 256), entries 0..99 (--below M: 0..M-1),
seed 7 (--seed S) — the n = 256 case of the sanitizer scripts. With --symmetric both matrices are
symmetric with zero diagonals, as Taillard's tai*a (their walks run the sums layout, not the split
one). The scale benchmark (scripts/bench-scale.sh) takes entries below 30, so that Taillard's Ro-TS,
whose costs are C ints, does not overflow at n = 2000.
python3 scripts/random-dat.py [N] [--symmetric] [--below M] [--seed S] > FILE"""
import random
import sys

argv = sys.argv[1:]
def take(flag, default):
    if flag in argv:
        i = argv.index(flag)
        value = int(argv[i + 1])
        del argv[i:i + 2]
        return value
    return default
below = take("--below", 100)
seed = take("--seed", 7)
symmetric = "--symmetric" in argv
args = [a for a in argv if a != "--symmetric"]
n = int(args[0]) if args else 256
random.seed(seed)
print(n)
for _ in range(2):
    if symmetric:
        m = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                m[i][j] = m[j][i] = random.randrange(below)
        for row in m:
            print(" ".join(map(str, row)))
    else:
        for i in range(n):
            print(" ".join(str(random.randrange(below)) for _ in range(n)))
