#!/usr/bin/env bash
# Several GPUs, one run (`--gpus`, `--multi`), on a multi-GPU machine, from the repository
# root after `cargo xtask dist` with QAPLIB in dist/qaplib. Usage: scripts/bench-multi.sh
# [compare|tests|001|003]... (default: compare)
#   compare  every device listed, a device that cannot be opened skipped with a note, then
#            time to target on 1 GPU against all of them (independent searches, 10 runs)
#   tests    the multi-device GPU tests (immigrants on the GPU, islands and master/slave on
#            two contexts of one GPU, the master/slave colony on one GPU against the colony)
#            and islands/master-slave on every GPU
#   001      seed 001's independent runs on 1, 2, 4 … GPUs: T_p, gain_p and M(p)
#   003      seed 003's Table 6 (aco-ts, MATA) on 1 GPU and on all of them in the three models
set -u
cd dist
export QAPLIB_DIR=$PWD/qaplib
out=${OUT:-../bench-results}
mkdir -p "$out"
for mode in "${@:-compare}"; do
  case $mode in
  compare)
    ./qapgpu info | grep -E "^GPU"
    echo "== --gpus 0,7 (no device 7)"; ./qapgpu tai25b --gpus 0,7 --seed 1 2>&1 | grep -E "^note|^algorithm|^target"
    for g in 0 all; do
      echo "== --gpus $g"
      timeout 250 ./qapgpu bench compare --engine gpu --gpus $g --algos ts,aco-ts,ga-independent --runs 10 --time-limit 5 \
        --instances tai35b,tai50b,tai60b,kra30b --out "$out/multi-$g" >/dev/null 2>/tmp/multi-$g.log
      cat "$out/multi-$g/compare.md" 2>/dev/null || tail -3 /tmp/multi-$g.log
    done ;;
  tests)
    echo "== multi_device"
    timeout 120 ./multi_device --test-threads=1 2>&1 | grep -E "^test |test result|panicked|SKIPPED"
    for m in islands master-slave; do
      echo "== --multi $m on every GPU"
      timeout 30 ./qapgpu tai60b --algo aco-ts --multi $m --seed 1 --time-limit 20 2>&1 | grep -E "^note|^algorithm|^layout|^target"
    done ;;
  001)
    echo "== bench 001 --gpus all"
    timeout 220 ./qapgpu bench 001 --engine gpu --gpus all --blocks 60,0 --runs 5 --single-runs 30 --time-limit 15 \
      --instances tai25b,kra30a,kra30b,tai30b --out "$out/seed001-gpus" >/dev/null 2>/tmp/s001.log
    cat "$out/seed001-gpus/seed001.md" 2>/dev/null || tail -3 /tmp/s001.log ;;
  003)
    echo "== bench 003-target --gpus all"
    timeout 220 ./qapgpu bench 003-target --engine gpu --gpus all --ls ts --layouts mata --runs ${RUNS003:-5} --time-limit 20 \
      --instances ${INST003:-tai40a,tai50a,tai60a,tai50b,tai60b,tai80b} --out "$out/seed003-gpus" >/dev/null 2>/tmp/s003.log
    cat "$out/seed003-gpus/seed003-table6.md" 2>/dev/null || tail -3 /tmp/s003.log ;;
  *) echo "unknown mode $mode"; exit 2 ;;
  esac
done
