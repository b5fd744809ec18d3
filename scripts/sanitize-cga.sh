#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the cellular GA kernels for n = 12, 64, 150
# and 256 (a random instance written here), both local searches and both mappings, a few
# generations each (from the repository root, after `cargo xtask dist` with QAPLIB in
# dist/qaplib).
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
python3 ../scripts/random-dat.py 256 > /tmp/rand256.dat
for tool in ${TOOLS:-memcheck racecheck}; do
  insts="nug12 esc64a tai150b"
  # n = 256 under racecheck takes minutes per run: only with RACECHECK_256=1 (and a small
  # GRID, a longer RUN_TIMEOUT).
  if [ "$tool" = memcheck ] || [ -n "${RACECHECK_256:-}" ]; then insts="$insts /tmp/rand256.dat"; fi
  [ -n "${ONLY_256:-}" ] && insts=/tmp/rand256.dat
  for inst in $insts; do
    for args in "--ls greedy --ls-mapping gene" "--ls greedy --ls-mapping move" "--ls 2opt --ls-mapping move" "--ls 2opt --ls-mapping gene" \
      "--ls greedy --ls-mapping gene --ls-passes 0" "--ls greedy --ls-mapping move --ls-passes 3" \
      "--ls 2opt --ls-mapping move --ls-passes 2"; do
      echo "== $tool $inst $args"
      timeout "${RUN_TIMEOUT:-60}" compute-sanitizer --tool $tool --print-limit 5 ./qapgpu $inst --engine gpu --algo cga $args \
        --grid "${GRID:-4x2}" --max-generations 1 --target 0 --quiet --seed 5 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|error|^cost" | head -3
    done
  done
done
