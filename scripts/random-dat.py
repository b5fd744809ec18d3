"""Writes a random QAPLIB instance to stdout: n (default 256), entries 0..99, seed 7 — the
n = 256 case of the sanitizer scripts. python3 scripts/random-dat.py [N] > FILE"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
random.seed(7)
print(n)
for _ in range(2):
    for i in range(n):
        print(" ".join(str(random.randrange(100)) for _ in range(n)))
