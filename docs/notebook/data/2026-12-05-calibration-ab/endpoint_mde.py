#!/usr/bin/env python3
"""Per-endpoint MDEs and verdicts of a calibration's runs: `lab report RUN --format md`
for each runs/*/, the per-endpoint table's cells parsed. Prints per line and quantile the
median MDE over the A/A runs, and how many A/A runs flagged a quantile of a line."""
import glob, re, statistics, subprocess, sys, collections
cal = sys.argv[1]
lab = sys.argv[2] if len(sys.argv) > 2 else "lab"
mdes = collections.defaultdict(list)        # (line, q) -> [mde %] over A/A runs
flagged = collections.Counter()             # (kind, q) -> runs with a flagged line
runs = collections.Counter()
cpu = collections.defaultdict(list)
for d in sorted(glob.glob(cal + "/runs/*/")):
    kind = "A/A" if "-AA-" in d else ("probe" if "probe" in d else "3%")
    runs[kind] += 1
    md = subprocess.run([lab, "report", d, "--format", "md"], capture_output=True, text=True).stdout
    qs = None
    any_flag = collections.Counter()
    for l in md.splitlines():
        if l.startswith("| endpoint | line |"):
            qs = [c.strip() for c in l.strip("|").split("|")][5:]
            continue
        if qs and l.startswith("| `"):
            cells = [c.strip() for c in l.strip("|").split("|")]
            name = cells[0].strip("`")
            for q, c in zip(qs, cells[5:]):
                m = re.search(r"mde ±([0-9.]+)%", c)
                if m and kind == "A/A":
                    mdes[(name, q)].append(float(m.group(1)))
                if "**" in c:
                    any_flag[q] += 1
        elif qs and not l.startswith("|"):
            qs = None
        m = re.match(r"\| server \+ database CPU \(µs/req\) \| ([0-9.,]+)", l)
        if m:
            cpu[kind].append(float(m.group(1).replace(",", "")))
    for q, n in any_flag.items():
        flagged[(kind, q)] += 1
print("runs:", dict(runs))
print("runs with at least one line flagged, per quantile:", dict(flagged))
names = sorted({k[0] for k in mdes})
qs = ["P0", "P50", "P90", "P95", "P99"]
print("| line | " + " | ".join(qs) + " |")
print("|---|" + "---:|" * len(qs))
for n in names:
    print("| `%s` | " % n + " | ".join("±%.1f%%" % statistics.median(mdes[(n, q)]) if mdes[(n, q)] else "–" for q in qs) + " |")
print("median CPU/req (baseline, µs):", {k: statistics.median(v) for k, v in cpu.items()})
