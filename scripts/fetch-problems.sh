#!/usr/bin/env bash
# Fetches the real problem files that `bench problems --files data/problems/benchmarks.csv`
# reads into dist/problems (about 4 MB; not shipped in the repository):
#   * TSPLIB95 tours (TSP and ATSP) of at most 256 cities, from pdrozdowski/TSPLib.Net
#     (MIT-licensed code; the instances are Reinelt's TSPLIB95, free for research:
#     http://comopt.ifi.uni-heidelberg.de/software/TSPLIB95/), pinned at commit 5cb1449;
#   * the Second DIMACS Challenge clique graphs of at most 256 vertices, from
#     jamestrimble/max-weight-clique-instances at commit a0fd6b6 (its DIMACS/weighted copies
#     add `n v w` vertex-weight lines, which are dropped here to give the original graphs).
# Every file is checked against data/problems/SHA256SUMS.
#   scripts/fetch-problems.sh [DEST]        (from the repository root; default: dist/problems)
# Each file is written under a temporary name and renamed once whole; a file that fails its
# checksum is removed, so that the next run fetches it again.
set -euo pipefail
dest=${1:-dist/problems}
tsplib=https://raw.githubusercontent.com/pdrozdowski/TSPLib.Net/5cb1449963fa56176c062ff806eb831dcbc07c54/TSPLIB95
dimacs=https://raw.githubusercontent.com/jamestrimble/max-weight-clique-instances/a0fd6b631136255807a98727b496a09a65b3301d/DIMACS/weighted
mkdir -p "$dest/tsplib" "$dest/dimacs"
tail -n +2 data/problems/benchmarks.csv | cut -d, -f1 | while read -r f; do
  [ -s "$dest/$f" ] && continue
  case "$f" in
    tsplib/*.atsp) curl -fsSL "$tsplib/atsp/${f#tsplib/}" -o "$dest/$f.part" ;;
    tsplib/*.tsp) curl -fsSL "$tsplib/tsp/${f#tsplib/}" -o "$dest/$f.part" ;;
    dimacs/*) curl -fsSL "$dimacs/${f#dimacs/}" | grep -v '^n ' > "$dest/$f.part" ;;
  esac
  mv "$dest/$f.part" "$dest/$f"
done
sums=$PWD/data/problems/SHA256SUMS
if ! (cd "$dest" && sha256sum --quiet -c "$sums"); then
  (cd "$dest" && sha256sum -c "$sums" 2>/dev/null | grep -v ': OK$' | cut -d: -f1 | xargs -r rm -f)
  echo "$dest: files that failed their checksum were removed; run again" >&2
  exit 1
fi
echo "$dest: $(tail -n +2 data/problems/benchmarks.csv | wc -l) files, checked"
