#!/usr/bin/env bash
# The history across releases of docs/notebook/2026-12-05-versions.md: one
# direct stack, the bundled `versions` experiment on each real binary,
# rounds interleaved (13.0.8, 14.0, 14.17, then again), the load average
# before each run, then lab history --by version.
# usage: measure.sh LAB SHARED_POSTGREST_DIR OUT_DIR [ROUNDS]
set -euo pipefail
lab=$1 shared=$2 out=$3 rounds=${4:-2}
mkdir -p "$out"
stack="$out/stack"
"$lab" stack up --dir "$stack" --supervisor direct --postgrest "$shared/postgrest" > "$out/stack-up.log"
trap '"$lab" stack down --dir "$stack" --purge >/dev/null 2>&1 || true' EXIT
"$lab" fixture chinook --dir "$stack" > "$out/fixture.log"
for r in $(seq "$rounds"); do
  for bin in postgrest postgrest-14.0 postgrest-14.17; do
    echo "round $r $bin $("$shared/$bin" --version) load: $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%T)" | tee -a "$out/loads.txt"
    LAB_BUILD="$shared/$bin" "$lab" run versions --dir "$stack" --results "$out/results" > "$out/run-$r-$bin.log" 2>&1
  done
done
echo "end load: $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%T)" | tee -a "$out/loads.txt"
"$lab" history versions --by version --results "$out/results" --metrics rate,cpu,p50,st_jwt --full --html "$out/history.html" > "$out/history.txt"
