#!/usr/bin/env python3
"""Replays candidate `converged` rules on the traces of scripts/bench-stop.sh.

    scripts/replay-stop.py bench-results/stop-gpu [bench-results/stop-cpu ...]

For each factor F and floor, a run is taken to stop at the first time t_k + max(F·t_k,
floor) that comes before its next improvement (t_k: the time of an improvement; the traces
read the best after every step, so this is the rule at the traces' resolution). It prints the
mean stop time and the runs whose cost at the stop is above their cost at the limit. The
floor applies to uniform random data from n = 31 (tai*a, rou*) as `policy::converged_floor_s`
does; "floor everywhere" applies it to every instance.
"""
import csv, glob, json, re, sys


def load(d):
    runs = []
    for j in sorted(glob.glob(f"{d}/*.json")):
        r = json.load(open(j))
        tr = [(float(x["seconds"]), int(x["best"])) for x in csv.DictReader(open(j[:-5] + ".csv"))]
        if tr:
            runs.append((r["instance"], r["n"], r["best_known"], tr))
    return runs


def stop_at(tr, factor, floor, limit):
    for k, (t, b) in enumerate(tr):
        nxt = tr[k + 1][0] if k + 1 < len(tr) else float("inf")
        end = t + max(factor * t, floor)
        if end < nxt and end < limit:
            return end, b
    return limit, tr[-1][1]


for d in sys.argv[1:]:
    runs = load(d)
    for everywhere in (True, False):
        for factor in (3, 4, 6, 8):
            for floor in (0.0, 0.05, 0.25, 0.5):
                stops, lost = [], []
                for i, n, bk, tr in runs:
                    uniform = re.match(r"(tai\d+a|rou)", i) and n > 30
                    t, b = stop_at(tr, factor, floor if everywhere or uniform else 0.0, 1.0)
                    stops.append(t)
                    if b > tr[-1][1]:
                        lost.append(f"{i} +{100 * (b - tr[-1][1]) / (bk or tr[-1][1]):.3f}%")
                where = "everywhere" if everywhere else "uniform n>30"
                print(f"{d} F={factor} floor={floor} ({where}): mean stop {sum(stops) / len(stops):.3f} s, "
                      f"{len(lost)} of {len(runs)} runs lost: {', '.join(lost)}")
