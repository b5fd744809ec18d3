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
#   scripts/bench-seeds.sh gpu001    001 Table II at p = 30 and 60 and the Fig. 6 fits (INSTANCES,
#                                    RUNS, BLOCKS, SINGLE_RUNS, LIMIT)
#   scripts/bench-seeds.sh cpu       the CPU columns, one thread a run, a run a core:
#                                    000 GA-1/GA-2 and 001 Table III (longer than 10 minutes
#                                    on 16 cores)
#   scripts/bench-seeds.sh reference the papers' GA by an independent C implementation
#   scripts/bench-seeds.sh aco-plain 003 Table 5's non-MATA column (RUNS, 10; INSTANCES)
#   scripts/bench-seeds.sh aco-t6    003 Table 6 at 10 runs: non-MATA, 2-opt (INSTANCES)
#   scripts/bench-seeds.sh cpu003    003 Table 5's one-thread CPU column: a process a run,
#                                    RUNS (10) seeds an instance, on all cores but one
#   scripts/bench-seeds.sh reference-aco  seed 003's cAS + tabu search by an independent C
#                                    implementation (INSTANCES, RUNS)
# Results go to $OUT (default bench-results)/<part>/, the log of each protocol beside it.
set -u
part=${1:?part: ga, ga-k, cga, aco, aco-plain, aco-t6, gpu001, cpu, cpu003, reference or reference-aco}
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
  # An instance a protocol, so that a call cut off keeps the instances done (each row is also
  # on the protocol's log as it ends). 30 runs of 15 s at p = 30 and 60 cost about 4 min for
  # tai35b, 2.5 for ste36b, 9 for tai40b and 13.5 for tai50b (10-run hit rates and times).
  for inst in $(echo "${INSTANCES:-tai25b,kra30a,kra30b,tai30b,kra32}" | tr , ' '); do
    run "t2-blocks-$inst" "${CAP:-560}" 001 --engine gpu --instances "$inst" --blocks "${BLOCKS:-30,60}" \
      --runs "${RUNS:-30}" --single-runs "${SINGLE_RUNS:-100}" --time-limit "${LIMIT:-15}"
  done
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
  # Table III: 30 runs of six sizes of nine instances, a run a core (16 minutes on 24 busy
  # cores: `scripts/bench-seeds-rest.sh` runs it beside the other long runs).
  run t3 1300 001-cpu --engine cpu --threads 1 --runs 30 --time-limit 20 --jobs "$jobs"
  ;;
reference)
  timeout 300 scripts/reference-ga.sh 30 8
  ;;
aco-plain)
  # An instance a protocol, so that a call cut off keeps the instances done.
  for inst in ${INSTANCES:-tai40a tai50a tai60a tai50b tai60b tai80b tai100b}; do
    run "t5-plain-$inst" "${CAP:-300}" 003-fixed --engine gpu --layouts plain --runs "${RUNS:-10}" --time-limit 120 --instances "$inst"
  done
  ;;
aco-t6)
  for inst in ${INSTANCES:-tai40a tai50a tai60a tai80a tai100a tai50b tai60b tai80b tai100b}; do
    run "t6-plain-$inst" 210 003-target --engine gpu --layouts plain --runs 10 --time-limit 20 --instances "$inst"
  done
  for inst in ${INSTANCES:-tai40a tai50a tai60a tai80a tai100a tai50b tai60b tai80b tai100b tai150b}; do
    run "t6-2opt-$inst" 210 003-target --engine gpu --layouts mata --ls 2opt --runs 10 --time-limit 20 --instances "$inst"
  done
  ;;
cpu003)
  # One process a run (--runs 1, seeds 1..RUNS), longest first, one core left to the GPU
  # protocol that may run beside it; a run past LIMIT (400 s) is reported cut off.
  jobs=${JOBS:-$(($(nproc) - 1))}
  insts=${INSTANCES:-tai100b tai80b tai60a tai50a tai40a tai60b tai50b}
  for inst in $insts; do for s in $(seq 1 "${RUNS:-10}"); do echo "$inst $s"; done; done |
    xargs -P "$jobs" -L1 bash -c 'timeout '"$((${LIMIT:-400} + 30))"' '"$bin"' bench 003-fixed --engine cpu --threads 1 --instances $0 --runs 1 --seed $1 --time-limit '"${LIMIT:-400}"' --out '"$out"'/t5cpu-$0-$1 > /dev/null 2>&1'
  echo "instance, runs, at the optimum, cut off, T_avg (s), avg error % (one CPU thread a run)"
  for inst in $insts; do
    awk -F, -v i="$inst" '
      $1 == i { k++; h += $6; c += $7; t += ($8 ~ /^>/ ? substr($8, 3) : $8); e += $10 }
      END { if (k) printf "%s, %d, %d, %d, %.2f, %.3f\n", i, k, h, c, t / k, e / k }' "$out/t5cpu-$inst"-*/seed003-table5.csv 2>/dev/null
  done
  ;;
reference-aco)
  # The reference is a static binary beside the others where the machine has no compiler.
  JOBS=${JOBS:-$(nproc)} timeout "${CAP:-560}" scripts/reference-aco.sh "${RUNS:-10}" ${INSTANCES:-tai50a tai60a tai80a}
  ;;
*) echo "unknown part: $part"; exit 2 ;;
esac
