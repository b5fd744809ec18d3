"""Writes a random QAPLIB instance to stdout: n (default 256), entries 0..99, seed 7 — the
n = 256 case of the sanitizer scripts. With --symmetric both matrices are symmetric with zero
diagonals, as Taillard's tai*a (their walks run the sums layout, not the split one).
python3 scripts/random-dat.py [N] [--symmetric] > FILE"""
import random
import sys

args = [a for a in sys.argv[1:] if a != "--symmetric"]
symmetric = "--symmetric" in sys.argv[1:]
n = int(args[0]) if args else 256
random.seed(7)
print(n)
for _ in range(2):
    if symmetric:
        m = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                m[i][j] = m[j][i] = random.randrange(100)
        for row in m:
            print(" ".join(map(str, row)))
    else:
        for i in range(n):
            print(" ".join(str(random.randrange(100)) for _ in range(n)))
