#!/usr/bin/env bash
# One `lab run limits` of real PostgREST 14.17 and one of 13.0.8 on the
# lab's generated data set (`lab fixture chinook`, seeded, Chinook's shape),
# root's systemd user manager, then `lab post` of the two runs.
#
#   LAB=bin/lab SHARED=../shared OUT=/tmp/post-generated bash measure.sh
set -euo pipefail
LAB=${LAB:-bin/lab}
SHARED=${SHARED:-../shared}
OUT=${OUT:-/tmp/post-generated}
SCENARIOS=${SCENARIOS:-GETSingle2020,GETSingleEmbed2020,GETAllEmbed,POSTSingle}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/user/0}
binof() { case $1 in 13.0.8) echo "$SHARED/postgrest/postgrest" ;; *) echo "$SHARED/postgrest/postgrest-$1" ;; esac; }
dirof() { echo "/var/lib/pgrst-lab-measure/post-$1"; }
mkdir -p "$OUT" /var/lib/pgrst-lab-measure && chmod 755 /var/lib/pgrst-lab-measure
for ver in 14.17 13.0.8; do
  mkdir -p "$OUT/$ver"
  "$LAB" stack up --dir "$(dirof "$ver")" --supervisor systemd --postgrest "$(binof "$ver")" >"$OUT/$ver/stack.txt"
  "$LAB" fixture chinook --dir "$(dirof "$ver")" >>"$OUT/$ver/stack.txt"
done
for ver in 14.17 13.0.8; do
  { date -u +%FT%TZ; uptime; } >"$OUT/$ver/run.uptime"
  "$LAB" run limits --scenarios "$SCENARIOS" --dir "$(dirof "$ver")" --results "$OUT/$ver/results" >"$OUT/$ver/run.txt" 2>&1 || echo "exit $?" >>"$OUT/$ver/run.txt"
  { date -u +%FT%TZ; uptime; } >>"$OUT/$ver/run.uptime"
done
for ver in 14.17 13.0.8; do
  "$LAB" stack down --dir "$(dirof "$ver")" --purge >>"$OUT/$ver/stack.txt"
done
"$LAB" post "$OUT"/13.0.8/results/limits/* "$OUT"/14.17/results/limits/* --out "$OUT/post" | tee "$OUT/post.txt"
