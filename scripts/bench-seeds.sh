#!/usr/bin/env bash
# The five seed papers' tables at their own settings and run counts (issue 42), on a GPU
# machine, from the repository root, with the binary and the GPU test binaries in $BIN_DIR
# (default dist/quick) and QAPLIB in $QAPLIB_DIR (default $BIN_DIR/qaplib, with kra32 from
# data/qaplib). One part a call, each under the device's 10 minutes:
#   scripts/bench-seeds.sh ga        twins; 000 Table 1's OX rows; 001 Table I (single
#                                    blocks, with and without restarts)
#   scripts/bench-seeds.sh ga-k      000 Table 1 (GPU, the paper's k, GA-1 and GA-2 schemes)
#   scripts/bench-seeds.sh cga       002 and 004 (10 runs a cell, 2-opt as the text and as
#                                    Algorithm 16, greedy 2-opt)
#   scripts/bench-seeds.sh aco       003 Table 5 (MATA, 10 runs), Table 2's profile (GPU)
#   scripts/bench-seeds.sh gpu001    001 Table II at p = 30 and 60 and the Fig. 6 fits
#   scripts/bench-seeds.sh cpu       the CPU columns, one thread a run, a run a core:
#                                    000 GA-1/GA-2 and 001 Table III
#   scripts/bench-seeds.sh reference the papers' GA by an independent C implementation
# Results go to $OUT (default bench-results)/<part>/, the log of each protocol beside it.
set -u
part=${1:?part: ga, cga, aco, gpu001, cpu or reference}
bin_dir=${BIN_DIR:-dist/quick}
bin=$bin_dir/qapgpu
export QAPLIB_DIR=${QAPLIB_DIR:-$bin_dir/qaplib}
out=${OUT:-bench-results}/$part
mkdir -p "$out"
run() { # NAME SECONDS ARGS...: one protocol, capped, its Markdown printed
  local name=$1 cap=$2; shift 2
  local t0=$SECONDS
  timeout "$cap" "$bin" bench "$@" --out "$out/$name" > "$out/$name.md" 2> "$out/$name.log"
  echo "== $name (rc $?, $((SECONDS - t0)) s): $*"
  cat "$out/$name.md"
}
case $part in
ga)
  for t in gpu_twin cga_twin; do
    echo "== $t"
    timeout 200 "$bin_dir/$t" --test-threads=1 2>&1 | grep -E "^test |test result|panicked|skipped" || true
  done
  run t1-ox 90 000 --engine gpu --k 1 --instances tai20b,tai25b,tai40b --crossover ox --runs 10 --time-limit 5
  run tI-restart 200 001-restart --engine gpu --runs 30 --time-limit 10
  ;;
ga-k)
  # A stuck run costs its whole limit: 3 s on an H200 is hundreds of times the paper's
  # generations for its T_avg.
  run t1-paper-k 330 000 --engine gpu --paper-k --variants ga1,ga2 --runs 10 --time-limit 3
  ;;
cga)
  run seed004 330 004 --engine gpu --runs 10
  run seed002 200 002 --engine gpu --runs 10
  ;;
aco)
  run t5-mata 330 003-fixed --engine gpu --layouts mata --runs 10 --time-limit 60
  run t2-profile 200 003-profile --engine gpu --layouts mata --runs 3 --time-limit 60
  ;;
gpu001)
  # ${INSTANCES:-…}: the nine in two calls fit the device's 10 minutes.
  run t2-blocks 560 001 --engine gpu --instances "${INSTANCES:-tai25b,kra30a,kra30b,tai30b,kra32}" --blocks 30,60 \
    --runs "${RUNS:-30}" --single-runs 100 --time-limit 15
  ;;
cpu)
  # One thread a run, as the papers' CPU columns; as many runs at once as there are cores.
  jobs=$(nproc)
  for inst in tai20b tai25b tai40b; do
    for v in ga1 ga2; do
      echo "$inst $v"
    done
  done | xargs -P "$jobs" -L1 bash -c 'timeout 200 '"$bin"' bench 000 --engine cpu --threads 1 --instances $0 --variants $1 --paper-k --runs 10 --time-limit 15 --out '"$out"'/ga-$0-$1 > /dev/null 2>&1'
  for inst in tai20b tai25b tai40b; do for v in ga1 ga2; do tail -n +5 "$out/ga-$inst-$v/seed000.md" | grep "^| $inst"; done; done
  for inst in tai25b kra30a kra30b tai30b kra32 tai35b ste36b tai40b tai50b; do echo "$inst"; done \
    | xargs -P "$jobs" -L1 bash -c 'timeout 330 '"$bin"' bench 001-cpu --engine cpu --threads 1 --instances $0 --populations 64,128,256,512,1024,2048 --runs 5 --time-limit 10 --out '"$out"'/t3-$0 > /dev/null 2>&1'
  for inst in tai25b kra30a kra30b tai30b kra32 tai35b ste36b tai40b tai50b; do cat "$out/t3-$inst"/*.md 2>/dev/null | grep "^| $inst"; done
  ;;
reference)
  timeout 300 scripts/reference-ga.sh 30 8
  ;;
*) echo "unknown part: $part"; exit 2 ;;
esac
