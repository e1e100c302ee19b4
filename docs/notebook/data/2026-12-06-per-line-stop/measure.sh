#!/usr/bin/env bash
# Session 2026-12-06 (morning): the adaptive stop waits for the per-line
# verdicts. One run at a time, on a quiet machine.
# usage: measure.sh STEP   (p1 postgrest-loadtest 13.0.8 vs 14.17 | p2 loadtest A/A on 14.17)
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/0
P13=/work/shared/postgrest/postgrest
P14=/work/shared/postgrest/postgrest-14.17
W=/work/m6
D=$W/stack R=$W/results L=$W/lab
la() { cut -d' ' -f1-3 /proc/loadavg; }
up() {
  $L stack down --dir $D --purge >/dev/null 2>&1 || true
  $L stack up --dir $D --postgrest $P14 >/dev/null 2>&1 || { echo "stack up failed"; exit 1; }
  $L fixture chinook --dir $D "$@" >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
}
step() { echo "== $1 start $(date -u +%FT%TZ) load $(la)"; s=$(date +%s); }
done_() { echo "== $1 exit $2 after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(la)"; }
case "$1" in
p1) up --postgrest-loadtest; step p1
    $L run postgrest-loadtest --binary v13.0.8=$P13 --binary v14.17=$P14 --dir $D --results $R/p1 --markdown $R/p1-summary.md; rc=$?
    done_ p1 $rc ;;
p2) up; step p2
    $L run loadtest --dir $D --results $R/p2 --markdown $R/p2-summary.md; rc=$?
    done_ p2 $rc ;;
esac
$L stack down --dir $D --purge >/dev/null 2>&1
