#!/usr/bin/env bash
# Issue 10, item 7: the local search's move costs in i32 where the instance allows, and A and
# B in shared memory where they fit, against i64 move costs (`--wide-delta`) and, when
# OLD names an earlier build's binary, against that build (matrices in global memory).
# One `qapgpu solve` per instance, algorithm and setting, 1 s, seed 1; prints the memory
# plan, the move costs per second and the final gap. From the repository root after
# `cargo xtask dist` with QAPLIB in dist/qaplib.
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
python3 ../scripts/random-dat.py 256 > /tmp/rand256.dat
for algo in ${ALGOS:-aco-ts ts}; do
  for inst in ${INSTANCES:-tai40a tai60a tai100a tai150b /tmp/rand256.dat}; do
    for setting in default --wide-delta ${OLD:+old}; do
      bin=./qapgpu; extra=""
      [ "$setting" = --wide-delta ] && extra=--wide-delta
      [ "$setting" = old ] && bin=$OLD
      # shellcheck disable=SC2086
      out=$($bin solve "$inst" --engine gpu --algo $algo --seed 1 --time-limit ${LIMIT:-1} --target 0 $extra 2>&1)
      mem=$(sed -n 's/^layout .*threads per [a-z]*\(.*\)$/\1/p' <<<"$out")
      rate=$(sed -n 's/^moves .*: \([0-9.e+]*\)\/s$/\1/p' <<<"$out")
      gap=$(sed -n 's/^cost .*(gap \([-0-9.]*\)%.*/\1/p' <<<"$out")
      echo "$algo | $(basename "$inst" .dat) | $setting | rate=${rate:-?} | gap=${gap:-?} | ${mem:-?}"
    done
  done
done
