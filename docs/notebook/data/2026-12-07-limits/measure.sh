#!/usr/bin/env bash
# Five repeated `lab run limits` on real PostgREST 14.17 and 13.0.8 (the
# real Chinook, root's systemd user manager), each followed, in the same
# minutes, by wrk on the same stack: the server pinned to the cores the
# lab's run gave it (CPU 1), wrk on the generator's (taskset -c 0), one
# thread, 1, 2, 4 and 8 connections for 5 s each; its best is the
# closed-loop throughput the lab's limit is held against.
#
#   LAB=bin/lab SHARED=../shared OUT=/tmp/limits-series RUNS=5 bash measure.sh
#   SCENARIOS=GETSingle2020,GETSingleEmbed2020,GETAllEmbed,POSTSingle ... (the four wrk checks)
set -euo pipefail
LAB=${LAB:-bin/lab}
SHARED=${SHARED:-../shared}
OUT=${OUT:-/tmp/limits-series}
RUNS=${RUNS:-5}
VERSIONS=${VERSIONS:-14.17 13.0.8}
# SCENARIOS: a comma list for `lab run --scenarios` (empty: all eight)
SCENARIOS=${SCENARIOS:-}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/run/user/0}
mkdir -p "$OUT"
post=$(mktemp)
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = io.open("%s"):read("*a")\n' \
  "$SHARED/chinook/post_employee_single.json" >"$post"

pin() { # pin (or free) every process of the stack's target and PostgreSQL
  local cpus=$1 dir=$2
  for pid in $(pgrep -f "$dir/postgrest.conf") $(pgrep -u postgres -f "$dir/pg-data|postgres:"); do
    taskset -a -cp "$cpus" "$pid" >/dev/null 2>&1 || true
  done
}

binof() { case $1 in 13.0.8) echo "$SHARED/postgrest/postgrest" ;; *) echo "$SHARED/postgrest/postgrest-$1" ;; esac; }
dirof() { echo "/var/lib/pgrst-lab-measure/limits-$1"; }

# Both stacks first (idle while the other is measured), then the runs
# alternate versions: run 1 of each, run 2 of each, ... so that a slow
# hour of the VM lands on both.
mkdir -p /var/lib/pgrst-lab-measure && chmod 755 /var/lib/pgrst-lab-measure
for ver in $VERSIONS; do
  mkdir -p "$OUT/$ver"
  "$LAB" stack up --dir "$(dirof "$ver")" --supervisor systemd --postgrest "$(binof "$ver")" >"$OUT/$ver/stack.txt"
  "$LAB" fixture load --dir "$(dirof "$ver")" "$SHARED/chinook/chinook.sql" "$SHARED/chinook/bench.sql" >>"$OUT/$ver/stack.txt"
done
for i in $(seq "$RUNS"); do
  for ver in $VERSIONS; do
    dir=$(dirof "$ver")
    url=$("$LAB" stack status --dir "$dir" --json | sed -n 's/.*"url": *"\(http[^"]*\)".*/\1/p' | head -n 1)
    { date -u +%FT%TZ; uptime; } >"$OUT/$ver/run$i.uptime"
    "$LAB" run limits ${SCENARIOS:+--scenarios "$SCENARIOS"} --dir "$dir" --results "$OUT/$ver/results" >"$OUT/$ver/run$i.txt" 2>&1 || echo "run $i: exit $?" >>"$OUT/$ver/run$i.txt"
    { date -u +%FT%TZ; uptime; } >>"$OUT/$ver/run$i.uptime"
    pin 1 "$dir"
    for sc in "GETSingle2020 /artist?select=*&artist_id=eq.3" "GETSingleEmbed2020 /album?select=*,track(*,genre(*))&artist_id=eq.127" \
      "GETAllEmbed /album?select=*,track(*,genre(*))" "POSTSingle /employee"; do
      name=${sc%% *} path=${sc#* }
      for c in 1 2 4 8; do
        args=()
        [ "$name" = POSTSingle ] && args=(-s "$post")
        rps=$(taskset -c 0 wrk -t1 -c"$c" -d5s "${args[@]}" "$url$path" | awk '/Requests\/sec/ {print $2}')
        echo "$name $c $rps" >>"$OUT/$ver/run$i.wrk"
      done
    done
    pin 0-1 "$dir"
    curl -s -X DELETE "$url/employee?title=eq.Load%20Tester" >/dev/null || true
    { date -u +%FT%TZ; uptime; } >>"$OUT/$ver/run$i.uptime"
  done
done
for ver in $VERSIONS; do
  "$LAB" stack down --dir "$(dirof "$ver")" --purge >>"$OUT/$ver/stack.txt"
done
rm -f "$post"
