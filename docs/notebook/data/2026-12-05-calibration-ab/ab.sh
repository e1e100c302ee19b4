#!/usr/bin/env bash
# One lab ab run, timed end to end: PostgREST 13.0.8 (baseline) vs 14.17 on the load test's lines.
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/0
P13=${P13:-../shared/postgrest/postgrest}
P14=${P14:-../shared/postgrest/postgrest-14.17}
D=${STACK:-/tmp/ab-stack}
R=${RESULTS:-results}
L=${LAB:-bin/lab}
$L stack down --dir $D --purge >/dev/null 2>&1 || true
$L stack up --dir $D --postgrest $P14 >/dev/null 2>&1
$L fixture chinook --dir $D >/dev/null 2>&1
echo "== start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
s=$(date +%s)
$L ab v13.0.8=$P13 v14.17=$P14 --dir $D --results $R --markdown $R/summary.md --gate 'cpu>+3%,endpoint_p50>+5%'
echo "== exit $? after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
$L stack down --dir $D --purge >/dev/null 2>&1
