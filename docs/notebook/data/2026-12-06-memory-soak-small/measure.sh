#!/usr/bin/env bash
# The memory-growth soak of 2026-12-06 (late morning), on a quiet machine:
# stack up on 14.17, Chinook and 1,000 generated tables, the run, stack down.
# L is a lab binary built beforehand (go build -o "$L" ./cmd/lab): nothing
# compiles while it measures.
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/$(id -u)
P14=/work/shared/postgrest/postgrest-14.17
L=${L:-/work/m7/lab} D=${D:-/work/m7/stack} R=${R:-/work/m7/results}
N=$(cd "$(dirname "$0")" && pwd)
la() { cut -d' ' -f1-3 /proc/loadavg; }
mkdir -p "$R"
$L stack down --dir "$D" --purge >/dev/null 2>&1 || true
$L stack up --dir "$D" --postgrest $P14 >/dev/null 2>&1 || { echo "stack up failed"; exit 1; }
echo "== fixture start $(date -u +%FT%TZ) load $(la)"
$L fixture chinook --dir "$D" --tables 1000 >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
echo "== soak start $(date -u +%FT%TZ) load $(la)"; s=$(date +%s)
$L run "$N/memory-growth-12m-small.toml" --profile --dir "$D" --results "$R/soak" --markdown "$R/soak-summary.md"; rc=$?
echo "== soak exit $rc after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(la)"
$L stack down --dir "$D" --purge >/dev/null 2>&1
