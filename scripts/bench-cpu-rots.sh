#!/usr/bin/env bash
# Issue 43's CPU criterion: qapgpu's CPU engine on CORES cores against CORES runs of
# Taillard's robust tabu search (Ro-TS, didoudiaz/QAP-codes src/rots-qap.c) at once on the
# same cores, both for LIMIT (1) s, over SEEDS (8) seeds, every instance of $QAPLIB_DIR with
# a best-known value (or INSTANCES="a b …"; QAPLIB_DIR, else ../shared/qaplib, else
# data/qaplib). From the repository root:
#   CORES=16 scripts/bench-cpu-rots.sh          # the criterion, on the GPU host's 16 cores
#   CORES=2 SEEDS=4 scripts/bench-cpu-rots.sh   # a proxy on a small machine
# Ours: `qapgpu solve FILE --engine cpu --threads CORES --time-limit LIMIT --stop time --seed S`
# (`auto`; EXTRA adds options, e.g. EXTRA="--algo ts"). Ro-TS: seeds (S-1)·CORES+1 … S·CORES, `-m 2000000000` (the code otherwise stops
# after 10,000 iterations), SIGINT after LIMIT s, the best of the CORES runs. The Ro-TS source
# is in $ROTS_DIR (default dist/rots: main.c, rots-qap.c, qap-utils.c, tools.c and headers),
# built here with gcc -O3 if no binary is there. The binary is $BIN (default
# target/release/qapgpu). Prints a row an instance (mean gap % of each over the seeds, and
# how many seeds each ended lower) and the means; the raw results go to $OUT/cpu-rots (default
# OUT bench-results; cpu-rots-extra where EXTRA is set). ROUNDS (1) repeats the whole
# measurement, ours then Ro-TS an instance and seed at a time, each round in $OUT/.../roundR:
# Ro-TS's runs stop on a signal after LIMIT s, so its best of the cores moves from round to
# round; a last table counts, an instance, the rounds in which ours was behind on average.
set -u
source scripts/reference/lib.sh
bin=${BIN:-target/release/qapgpu}
rots_dir=${ROTS_DIR:-dist/rots}
qaplib_dir
qaplib=$dir
cores=${CORES:-$(nproc)}
seeds=${SEEDS:-8}
rounds=${ROUNDS:-1}
limit=${LIMIT:-1}
out=${OUT:-bench-results}/cpu-rots${EXTRA:+-extra}
[ -x "$bin" ] || fail "no qapgpu binary at $bin (cargo build --release -p host, or set BIN)"
whole CORES "$cores"
whole SEEDS "$seeds"
whole ROUNDS "$rounds"
positive LIMIT "$limit"
if [ ! -x "$rots_dir/rots-qap" ]; then
  [ -f "$rots_dir/rots-qap.c" ] || fail "no Ro-TS source in $rots_dir (didoudiaz/QAP-codes src/: main.c, rots-qap.c, qap-utils.c, tools.c and their headers; set ROTS_DIR)"
  (cd "$rots_dir" && gcc -O3 -w -o rots-qap rots-qap.c main.c qap-utils.c tools.c -lm) || fail "Ro-TS did not build in $rots_dir"
fi
mkdir -p "$out"
if [ -n "${INSTANCES:-}" ]; then
  names=$INSTANCES
else
  [ -f "$qaplib/bks.csv" ] || fail "no bks.csv in $qaplib (name the instances with INSTANCES)"
  names=$(cut -d, -f1 "$qaplib/bks.csv" | tail -n +2 | while read -r i; do [ -f "$qaplib/$i.dat" ] && echo "$i"; done)
fi
[ -n "$names" ] || fail "no instance with a best-known value in $qaplib"
for name in $names; do
  [ -f "$qaplib/$name.dat" ] || fail "no $qaplib/$name.dat"
done
dirs=()
for round in $(seq 1 "$rounds"); do
  d=$out
  [ "$rounds" -eq 1 ] || d=$out/round$round
  mkdir -p "$d"
  dirs+=("$d")
  for name in $names; do
    f=$qaplib/$name.dat
    for s in $(seq 1 "$seeds"); do
      "$bin" solve "$f" --engine cpu --threads "$cores" --time-limit "$limit" --stop time --seed "$s" ${EXTRA:-} --json -q > "$d/ours-$name-$s.json" 2> "$d/ours-$name-$s.log" ||
        fail "qapgpu failed on $name (seed $s): $(head -c 300 "$d/ours-$name-$s.log")"
      for r in $(seq $(((s - 1) * cores + 1)) $((s * cores))); do
        timeout -s INT -k 5 "$limit" stdbuf -oL "$rots_dir/rots-qap" -s "$r" -m 2000000000 "$f" > "$d/rots-$name-$s-$r.txt" 2>&1 &
      done
      wait
    done
  done
done
python3 - "$seeds" "${dirs[*]}" $names <<'PY'
import collections, glob, json, re, sys
seeds, dirs, names = int(sys.argv[1]), sys.argv[2].split(" "), sys.argv[3:]
behind_in = collections.Counter()
for out in dirs:
  if len(dirs) > 1:
    print(f"\n{out}\n")
  print("| instance | ours: mean gap % | Ro-TS best of the cores: mean gap % | seeds ours lower / Ro-TS lower |")
  print("|---|---|---|---|")
  tot_o, tot_r, behind = [], [], []
  for name in names:
      og, rg, wins, losses = [], [], 0, 0
      for s in range(1, seeds + 1):
          try:
              o = json.load(open(f"{out}/ours-{name}-{s}.json"))
          except Exception:
              continue
          known = o["best_known"]
          costs = []
          for p in glob.glob(f"{out}/rots-{name}-{s}-*.txt"):
              m = re.findall(r"Exec #1 .*cost:\s*(\d+)", open(p).read())
              if m:
                  costs.append(int(m[-1]))
          if not costs or not known:
              continue
          r = min(costs)
          og.append(100 * (o["cost"] - known) / known)
          rg.append(100 * (r - known) / known)
          wins += o["cost"] < r
          losses += r < o["cost"]
      if not og:
          print(f"| {name} | – | – | – |")
          continue
      mo, mr = sum(og) / len(og), sum(rg) / len(rg)
      tot_o.append(mo)
      tot_r.append(mr)
      if mo > mr:
          behind.append(name)
      print(f"| {name} | {mo:.4f} | {mr:.4f} | {wins} / {losses} |")
  if tot_o:
      print(f"| mean over {len(tot_o)} | {sum(tot_o) / len(tot_o):.4f} | {sum(tot_r) / len(tot_r):.4f} | |")
  print(f"\nours behind Ro-TS on average: {', '.join(behind) if behind else 'none'}")
  behind_in.update(behind)
if len(dirs) > 1:
    print(f"\nrounds (of {len(dirs)}) in which ours was behind on average: " + (", ".join(f"{k} {v}" for k, v in sorted(behind_in.items())) or "none"))
PY
