#!/usr/bin/env bash
# Session 2026-12-05 (evening) measurements, one at a time, on a quiet machine.
# usage: measure.sh STEP   (m1 per-line A/A | m2 postgrest-loadtest 13 vs 14 | m3 calibrate per-line | m4 schema-reload | m5 large-responses)
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/0
P13=/work/shared/postgrest/postgrest
P14=/work/shared/postgrest/postgrest-14.17
D=/work/m3/stack
R=/work/m3/results
L=/work/m3/lab
C=/work/m3/copies
mkdir -p $C/a $C/b
cp $P14 $C/a/postgrest; cp $P14 $C/b/postgrest
la() { cut -d' ' -f1-3 /proc/loadavg; }
up() {
  $L stack down --dir $D --purge >/dev/null 2>&1 || true
  $L stack up --dir $D --postgrest $P14 >/dev/null 2>&1 || { echo "stack up failed"; exit 1; }
  $L fixture chinook --dir $D "$@" >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
}
step() { echo "== $1 start $(date -u +%FT%TZ) load $(la)"; s=$(date +%s); }
done_() { echo "== $1 exit $2 after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(la)"; }
case "$1" in
m1) up; step m1
    $L ab 14.17-a=$C/a/postgrest 14.17-b=$C/b/postgrest --per-line --max-trials 10 --dir $D --results $R/m1 --markdown $R/m1-summary.md; rc=$?
    done_ m1 $rc ;;
m2) up --postgrest-loadtest; step m2
    $L run postgrest-loadtest --binary v13.0.8=$P13 --binary v14.17=$P14 --dir $D --results $R/m2 --markdown $R/m2-summary.md; rc=$?
    done_ m2 $rc ;;
m3) up; step m3
    PGRST_RELEASE=$P14 PGRST_BRANCH=$P14 $L calibrate binaries --per-line --max-trials 10 --aa-runs 5 --effects 3x5 --dir $D --results $R/m3; rc=$?
    done_ m3 $rc ;;
m4) up --tables 1000,10000; step m4
    $L run schema-reload --dir $D --results $R/m4; rc=$?
    done_ m4 $rc ;;
m5) up --rows 1000000; step m5
    $L run large-responses --dir $D --results $R/m5; rc=$?
    done_ m5 $rc ;;
esac
$L stack down --dir $D --purge >/dev/null 2>&1
