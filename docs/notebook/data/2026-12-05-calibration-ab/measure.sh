#!/usr/bin/env bash
# The counted series of lab ab's design (binaries: duet, efficiency, the load test's lines) on real PostgREST 14.17.
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/0
P=${LAB_POSTGREST:-../shared/postgrest/postgrest-14.17}
D=${STACK:-/tmp/cal-stack}
R=${RESULTS:-results}
L=${LAB:-bin/lab}
$L stack down --dir $D --purge >/dev/null 2>&1 || true
$L stack up --dir $D --postgrest $P
$L fixture chinook --dir $D
echo "== start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
PGRST_RELEASE=$P PGRST_BRANCH=$P $L calibrate binaries --dir $D --results $R --aa-runs 20 --effects 3x10
echo "== end $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
$L stack down --dir $D --purge
