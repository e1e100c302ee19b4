#!/usr/bin/env bash
# A/A self-check: runs the bundled `aa` experiment (the same config twice,
# 5 trials each) N times on the local stack and counts how often the verdict
# on throughput and on latency p50/p99 is "~" (no significant difference).
# The lab's promise: at least 19 of 20.
#
#   bash experiments/aa-rate.sh [N] [DURATION]      (default 20 runs of 4s trials)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
dur=${2:-4s}
dir=${LAB_DIR:-.lab}
out=$(mktemp -d /tmp/lab-aa.XXXXXX)
make -s build
same=0
for i in $(seq "$n"); do
  bin/lab run aa --dir "$dir" --results "$out" --min-trials 5 --max-trials 5 --duration "$dur" --warmup 1s >"$out/run-$i.log" 2>&1 ||
    { echo "run $i failed, see $out/run-$i.log"; tail -5 "$out/run-$i.log"; exit 1; }
  v=$(ls -d "$out"/aa/*/ | tail -1)verdicts.json
  verdict=$(python3 - "$v" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
sig = [r["metric"] for r in rows if r["metric"] in ("rate", "p50", "p99") and r["significant"]]
print("~" if not sig else "differs: " + ",".join(sig))
PY
)
  [ "$verdict" = "~" ] && same=$((same + 1))
  printf 'run %2d/%d: %s\n' "$i" "$n" "$verdict"
done
echo "A/A: $same of $n runs found no significant difference in throughput and latency (want >= $((n * 19 / 20)))"
[ "$same" -ge $((n * 19 / 20)) ]
