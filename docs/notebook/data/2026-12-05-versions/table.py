#!/usr/bin/env python3
"""The table of docs/notebook/2026-12-05-versions.md from the runs' run.json:
per release and scenario the median over both runs' trials of throughput,
server + database CPU per request and the jwt Server-Timing phase, and the
JWT cache's hit rate where the release counts it.
usage: table.py RESULTS_DIR/versions"""
import json, os, statistics, sys
from collections import defaultdict

cells = defaultdict(lambda: defaultdict(list))
order = []
for d in sorted(os.listdir(sys.argv[1])):
    p = os.path.join(sys.argv[1], d, "run.json")
    if not os.path.exists(p):
        continue
    run = json.load(open(p))
    ver = run["variants"][0].get("build", {}).get("version") or run["target"]["version"]
    for t in run["trials"]:
        if t.get("error"):
            continue
        ld, sc = t["load"], t["scenario"]
        ok = ld["requests"] - ld["errors"]
        if ok <= 0:
            continue
        c = cells[(ver, sc)]
        c["rate"].append(ld["rate"])
        c["cpu"].append(t["server"]["cpu_per_request_us"] + t["database"]["cpu_per_request_us"])
        st = ld.get("server_timing")
        if st and st.get("requests"):
            c["jwt"].append(st["phases"][0]["mean_ms"] * 1000)
        jc = (t.get("db") or {}).get("jwt_cache")
        if jc and jc.get("requests"):
            c["hit"].append(100.0 * jc["hits"] / jc["requests"])
        if sc not in order:
            order.append(sc)
versions = sorted({v for v, _ in cells}, key=lambda v: [int(x) for x in v.split(".")])
med = lambda xs: statistics.median(xs) if xs else float("nan")
print("| scenario | " + " | ".join(f"{v} req/s" for v in versions) + " | " + " | ".join(f"{v} CPU µs/req" for v in versions) + " |")
print("|---|" + "---:|" * (2 * len(versions)))
for sc in order:
    print(f"| {sc} | " + " | ".join(f"{med(cells[(v, sc)]['rate']):,.0f}" for v in versions) + " | " +
          " | ".join(f"{med(cells[(v, sc)]['cpu']):,.0f}" for v in versions) + " |")
print()
print("| jwt-reused | " + " | ".join(versions) + " |")
print("|---|" + "---:|" * len(versions))
print("| jwt phase, µs (mean per request, median of trials) | " + " | ".join(f"{med(cells[(v, 'jwt-reused')]['jwt']):.1f}" for v in versions) + " |")
print("| GETSingle's jwt phase, µs (no token) | " + " | ".join(f"{med(cells[(v, 'GETSingle')]['jwt']):.1f}" for v in versions) + " |")
print("| JWT cache hit rate, % | " + " | ".join(f"{med(cells[(v, 'jwt-reused')]['hit']):.1f}" if cells[(v, 'jwt-reused')]['hit'] else "not counted" for v in versions) + " |")
print("| trials (both runs) | " + " | ".join(str(len(cells[(v, 'jwt-reused')]['rate'])) for v in versions) + " |")
