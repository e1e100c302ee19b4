#!/usr/bin/env python3
"""Tables of measure.sh's series: per version, each run's limit per
scenario (the median of its held rates), their spread over the runs,
each run's own interval, wrk's best closed-loop throughput beside it, and
the physics check (limit x CPU per request against the server's cores).

    python3 summarize.py /tmp/limits-series
"""
import glob, json, math, os, statistics, sys

out = sys.argv[1]
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365}

def rows(run):
    by = {}
    for t in run["trials"]:
        if t.get("error"):
            continue
        ld = t.get("load", {})
        if not ld.get("asked_rate"):
            continue
        cpu = t.get("server", {}).get("cpu_per_request_us", 0) + t.get("database", {}).get("cpu_per_request_us", 0)
        by.setdefault(t["scenario"], []).append((ld["asked_rate"], cpu))
    return by

for ver in sorted(os.listdir(out)):
    dirs = sorted(glob.glob(os.path.join(out, ver, "results", "limits", "*")))
    if not dirs:
        continue
    runs = [json.load(open(os.path.join(d, "run.json"))) for d in dirs]
    wrk = []
    for i in range(1, len(runs) + 1):
        best = {}
        p = os.path.join(out, ver, "run%d.wrk" % i)
        if os.path.exists(p):
            for line in open(p):
                f = line.split()
                if len(f) == 3 and f[2]:
                    best[f[0]] = max(best.get(f[0], 0), float(f[2]))
        wrk.append(best)
    scen = runs[0]["experiment"]["scenarios"]
    print("\n### PostgREST %s\n" % ver)
    for i in range(1, len(runs) + 1):
        up = open(os.path.join(out, ver, "run%d.uptime" % i)).read().split("\n")
        print("- run %d: %s" % (i, "; ".join(l.strip() for l in up if l.strip())))
    print()
    print("| scenario | " + " | ".join("run %d" % (i + 1) for i in range(len(runs))) + " | mean | spread | runs within ±5 % |")
    print("|---|" + "---:|" * len(runs) + "---:|---:|---:|")
    for sc in scen:
        meds, precise, cells = [], 0, []
        for r in runs:
            v = [x for x, _ in rows(r).get(sc, [])]
            if not v:
                cells.append("–")
                continue
            m = statistics.median(v)
            meds.append(m)
            n = len(v)
            hw = T975.get(n - 1, 2) * statistics.stdev(v) / math.sqrt(n) / statistics.mean(v) if n > 1 else float("nan")
            precise += hw <= 0.05
            cells.append("%.4g (±%.1f %%, n=%d)" % (m, 100 * hw, n))
        mean = statistics.mean(meds) if meds else float("nan")
        spread = (max(meds) - min(meds)) / 2 / mean if meds else float("nan")
        print("| %s | %s | %.4g | ±%.1f %% | %d of %d |" % (sc, " | ".join(cells), mean, 100 * spread, precise, len(runs)))
    print()
    print("| scenario | lab limit (median of runs) | wrk best (median of runs) | lab / wrk, per run | limit x CPU per request (cores; the server had 1) |")
    print("|---|---:|---:|---|---:|")
    for sc in scen:
        labs, ratios, busy = [], [], []
        for r, w in zip(runs, wrk):
            rs = rows(r).get(sc, [])
            if not rs:
                continue
            m = statistics.median(x for x, _ in rs)
            labs.append(m)
            busy.append(m * statistics.median(c for _, c in rs) / 1e6)
            key = {"GETSingle2020": "GETSingle2020", "GETSingleEmbed2020": "GETSingleEmbed2020", "GETAllEmbed": "GETAllEmbed", "POSTSingle": "POSTSingle"}.get(sc)
            if key and w.get(key):
                ratios.append(m / w[key])
        wb = [w[sc] for w in wrk if w.get(sc)]
        print("| %s | %.4g | %s | %s | %.2f |" % (sc, statistics.median(labs) if labs else float("nan"),
              "%.4g" % statistics.median(wb) if wb else "–", ", ".join("%.2f" % x for x in ratios) or "–",
              statistics.median(busy) if busy else float("nan")))
