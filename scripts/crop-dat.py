"""Writes the first N facilities and locations of a QAPLIB instance to stdout: both matrices
cut to their leading N × N blocks (structured test data of any size from tai150b, as in
docs/benchmarks-record.md, "The fast path before occupancy").
python3 scripts/crop-dat.py FILE N > OUT"""
import sys

path, m = sys.argv[1], int(sys.argv[2])
t = open(path).read().split()
n = int(t[0])
if not 1 <= m <= n:
    sys.exit(f"crop-dat.py: N = {m}: expected 1 to {n} for {path}")
v = t[1:1 + 2 * n * n]
print(m)
for off in (0, n * n):
    for i in range(m):
        print(" ".join(v[off + i * n: off + i * n + m]))
