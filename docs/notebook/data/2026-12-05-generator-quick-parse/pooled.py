#!/usr/bin/env python3
"""The closed rows of the kept bench outputs: paired per round (lab / wrk of
the same round), pooled over the files given, and the fit at equal
throughput of loadgen/bench/real-postgrest.sh, per file.

    python3 pooled.py full.txt closed12.txt closed20.txt closed10.txt
"""
import math, re, statistics as st, sys

LINE = re.compile(r"round (\d+) closed (\S+): (\d+) req/s, ([\d.]+) us")


def rounds(path):
    r = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            r.setdefault(m[1], {})[m[2]] = (int(m[3]), float(m[4]))
    return r


def fit(rs):
    rows = [(c, math.log(x), math.log(y)) for v in rs.values() for c, (x, y) in v.items()]
    g = {c: [(x, y) for k, x, y in rows if k == c] for c in {k for k, _, _ in rows}}
    mx = {c: st.mean(x for x, _ in v) for c, v in g.items()}
    my = {c: st.mean(y for _, y in v) for c, v in g.items()}
    sxx = sum((x - mx[c]) ** 2 for c, v in g.items() for x, _ in v)
    b = sum((x - mx[c]) * (y - my[c]) for c, v in g.items() for x, y in v) / sxx
    s2 = sum(((y - my[c]) - b * (x - mx[c])) ** 2 for c, v in g.items() for x, y in v) / (len(rows) - len(g) - 1)
    for c in sorted(g):
        if c == "wrk":
            continue
        d = (my[c] - my["wrk"]) - b * (mx[c] - mx["wrk"])
        se = math.sqrt(s2 * (1 / len(g[c]) + 1 / len(g["wrk"])) + (mx[c] - mx["wrk"]) ** 2 * s2 / sxx)
        print(f"  {c}: CPU/req at equal throughput {math.exp(d):.2f}x wrk [{math.exp(d - 1.96 * se):.2f}..{math.exp(d + 1.96 * se):.2f}], slope {b:.2f}")


pairs = {}
for path in sys.argv[1:]:
    rs = rounds(path)
    print(path)
    fit(rs)
    for v in rs.values():
        for c, (x, y) in v.items():
            if c != "wrk":
                pairs.setdefault(c, []).append((x / v["wrk"][0], y / v["wrk"][1]))
for c, p in sorted(pairs.items()):
    q, w = sorted(x for x, _ in p), sorted(y for _, y in p)
    n = len(p)
    print(f"{c}, {n} rounds pooled: req/s {st.median(q):.2f}x [IQR {q[n // 4]:.2f}..{q[3 * n // 4]:.2f}], "
          f"CPU/req {st.median(w):.2f}x [IQR {w[n // 4]:.2f}..{w[3 * n // 4]:.2f}], {sum(y <= 1 for y in w)} of {n} at or below wrk")
