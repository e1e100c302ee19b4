#!/usr/bin/env bash
# Session 2026-12-06 measurements for issue #45, one at a time, on a quiet machine.
# usage: measure.sh STEP, in this order: p1 p2 p3 p4 p5 p6 p7 p8 p2b p3b
#   p1 memory-growth 13.0.8 + 14.17 side by side (5 min soaks)   p2 jwt on 14.17   p3 jwt (13's key) on 13.0.8
#   p4 pool-exhaustion on 14.17   p5 pool-exhaustion on 13.0.8   p6 schema-reload on 13.0.8   p7 large-responses on 13.0.8
#   p8 memory-growth's 10k tables from fresh starts, both builds
#   p2b, p3b: p2 and p3 again with eight rounds (p2 was disturbed by a compile; both stopped at six)
# jwt-v13.toml runs from a copy beside experiments/jwt/rs256.pem (see its header): /work/m4/jwt13.
set -uo pipefail
export XDG_RUNTIME_DIR=/run/user/0
P13=/work/shared/postgrest/postgrest
P14=/work/shared/postgrest/postgrest-14.17
D=/work/m4/stack
R=/work/m4/results
L=/work/m4/lab
N=/work/main/docs/notebook/data/2026-12-06-production
mkdir -p $R
la() { cut -d' ' -f1-3 /proc/loadavg; }
up() { # up BINARY [fixture flags]
  b=$1; shift
  $L stack down --dir $D --purge >/dev/null 2>&1 || true
  $L stack up --dir $D --postgrest $b >/dev/null 2>&1 || { echo "stack up failed"; exit 1; }
  $L fixture chinook --dir $D "$@" >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
}
step() { echo "== $1 start $(date -u +%FT%TZ) load $(la)"; s=$(date +%s); }
done_() { echo "== $1 exit $2 after $(( $(date +%s) - s )) s; end $(date -u +%FT%TZ) load $(la)"; }
run() { # run STEP ARGS...
  st=$1; shift; step $st
  $L run "$@" --dir $D --results $R/$st --markdown $R/$st-summary.md; rc=$?
  done_ $st $rc
}
case "$1" in
p1) up $P14 --tables 10000; run p1 $N/memory-growth-versions.toml --profile ;;
p2) up $P14; run p2 jwt ;;
p3) up $P13; run p3 /work/m4/jwt13/jwt-v13.toml ;;
p4) up $P14; run p4 pool-exhaustion ;;
p5) up $P13; run p5 pool-exhaustion ;;
p6) up $P13 --tables 1000,10000; run p6 schema-reload ;;
p7) up $P13 --rows 1000000; run p7 large-responses ;;
p8) up $P14 --tables 10000; run p8 $N/memory-growth-10k-fresh.toml --profile ;;
p2b) up $P14; run p2b jwt --min-trials 8 --max-trials 8 ;;
p3b) up $P13; run p3b /work/m4/jwt13/jwt-v13.toml --min-trials 8 --max-trials 8 ;;
esac
$L stack down --dir $D --purge >/dev/null 2>&1
