#!/usr/bin/env bash
# The memory-growth soaks of 2026-12-06, one at a time on a quiet machine:
# stack up on 14.17, the generated tables, the run, stack down.
# usage: measure.sh soak   30-minute soaks beside 10,000 tables, both builds
#        measure.sh 1k     5-minute soaks beside 1,000 tables, both builds
# L is a lab binary built beforehand (go build -o "$L" ./cmd/lab): nothing
# compiles while it measures.
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/$(id -u)
P14=/work/shared/postgrest/postgrest-14.17
L=${L:-/work/m5/lab}
D=${D:-/work/m5/stack}
R=${R:-/work/m5/results}
N=$(cd "$(dirname "$0")" && pwd)
la() { cut -d' ' -f1-3 /proc/loadavg; }
case "$1" in
soak) tables=10000 file=memory-growth-30m.toml ;;
1k) tables=1000 file=memory-growth-1k.toml ;;
*) echo "usage: $0 soak|1k" >&2; exit 2 ;;
esac
mkdir -p "$R"
$L stack down --dir "$D" --purge >/dev/null 2>&1 || true
$L stack up --dir "$D" --postgrest $P14 >/dev/null 2>&1 || { echo "stack up failed"; exit 1; }
echo "== fixture start $(date -u +%FT%TZ) load $(la)"
$L fixture chinook --dir "$D" --tables $tables >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
echo "== $1 start $(date -u +%FT%TZ) load $(la)"; s=$(date +%s)
$L run "$N/$file" --profile --dir "$D" --results "$R/$1" --markdown "$R/$1-summary.md"; rc=$?
echo "== $1 exit $rc after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(la)"
$L stack down --dir "$D" --purge >/dev/null 2>&1
