#!/usr/bin/env bash
# usage: measure.sh NAME FIXTURE(generated|real)
set -euo pipefail
D=/work/measure; name=$1; fix=$2
L=$D/bin/lab
if [ "$fix" = real ]; then
  $L fixture load --dir $D/.lab --probe artist /work/shared/chinook/chinook.sql /work/shared/chinook/bench.sql
else
  $L fixture chinook --dir $D/.lab
fi
echo "load before: $(cat /proc/loadavg)"; date -u +%T
start=$(date +%s)
$L run limits --dir $D/.lab --results $D/results-$name > $D/run-$name.log 2>&1 || echo "lab run exit $?"
end=$(date +%s)
echo "load after: $(cat /proc/loadavg)"; date -u +%T; echo "wall: $((end-start)) s"
url=$($L stack status --dir $D/.lab --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
echo "wrk GETSingle closed, 10 connections, 10 s (load $(cut -d' ' -f1-3 /proc/loadavg)):"
wrk -t1 -c10 -d10s -s /tmp/rand.lua "$url" | tee $D/wrk-$name.txt
