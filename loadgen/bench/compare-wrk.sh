#!/usr/bin/env bash
# compare-wrk.sh: closed-model throughput and client CPU of `lab load`
# against wrk -t1, side by side, in alternating rounds.
#
# One trivial fasthttp server (trivialserver) is pinned to CPU 1, both
# clients to CPU 0 (taskset), 50 connections each. Client CPU is user+sys
# from /usr/bin/time. Prints per-round figures, the medians and the
# ratios lab/wrk (goal: req/s >= 0.9x, CPU per request <= 1.3x).
#
# Env: ROUNDS (5), DURATION (10s), CONNS (50), PORT (18080), SERVER_CPU (1),
# CLIENT_CPU (0), LAB (path to a built lab binary; built if unset).
# Needs wrk and GNU time (apt-get install -y wrk time). Loopback only.
set -euo pipefail
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-50}
PORT=${PORT:-18080}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
for tool in wrk taskset /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "compare-wrk: $tool not found (apt-get install -y wrk time util-linux)" >&2; exit 1; }
done
tmp=$(mktemp -d)
srv_pid=""
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
(cd "$root" && go build -o "$tmp/trivialserver" ./loadgen/bench/trivialserver)
if [ -z "${LAB:-}" ]; then
	(cd "$root" && go build -o "$tmp/lab" ./cmd/lab)
	LAB="$tmp/lab"
fi
url="http://127.0.0.1:$PORT/"
taskset -c "$SERVER_CPU" "$tmp/trivialserver" -addr "127.0.0.1:$PORT" &
srv_pid=$!
for _ in $(seq 50); do
	if (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; then break; fi
	sleep 0.1
done

# run_wrk / run_lab print "reqs seconds cpu_seconds"
run_wrk() {
	taskset -c "$CLIENT_CPU" /usr/bin/time -f '%U %S' -o "$tmp/time" wrk -t1 -c"$CONNS" -d"$DURATION" "$url" >"$tmp/out"
	awk '/requests in/ { n=$1; s=$4; sub(/s,/, "", s) } END { printf "%s %s ", n, s }' "$tmp/out"
	awk '{ printf "%.3f\n", $1+$2 }' "$tmp/time"
}
run_lab() {
	taskset -c "$CLIENT_CPU" /usr/bin/time -f '%U %S' -o "$tmp/time" "$LAB" load --url "$url" --connections "$CONNS" --duration "$DURATION" --json >"$tmp/out"
	# requests is the measured count; duration_s the measured time
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["requests"], j["duration_s"], end=" ")' "$tmp/out"
	awk '{ printf "%.3f\n", $1+$2 }' "$tmp/time"
}

printf "%-5s %-4s %10s %10s %12s\n" round tool req/s cpu_s us/req
: >"$tmp/rows"
for r in $(seq "$ROUNDS"); do
	# alternate which goes first
	if [ $((r % 2)) -eq 1 ]; then order="wrk lab"; else order="lab wrk"; fi
	for tool in $order; do
		read -r n s cpu < <(run_$tool)
		awk -v r="$r" -v t="$tool" -v n="$n" -v s="$s" -v c="$cpu" 'BEGIN {
			printf "%-5s %-4s %10.0f %10.2f %12.2f\n", r, t, n/s, c, 1e6*c/n }'
		echo "$r $tool $n $s $cpu" >>"$tmp/rows"
	done
done
python3 - "$tmp/rows" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
d = {}
for r, t, n, s, c in rows:
    d.setdefault(int(r), {})[t] = (float(n) / float(s), 1e6 * float(c) / float(n))
rate_ratio = [v["lab"][0] / v["wrk"][0] for v in d.values()]
cpu_ratio = [v["lab"][1] / v["wrk"][1] for v in d.values()]
med = lambda t, i: st.median(v[t][i] for v in d.values())
print(f"median req/s:        wrk {med('wrk',0):.0f}  lab {med('lab',0):.0f}")
print(f"median CPU µs/req:   wrk {med('wrk',1):.2f}  lab {med('lab',1):.2f}")
print(f"ratio lab/wrk req/s (per round): {' '.join(f'{x:.2f}' for x in rate_ratio)}  median {st.median(rate_ratio):.2f}  (goal >= 0.90)")
print(f"ratio lab/wrk CPU/req (per round): {' '.join(f'{x:.2f}' for x in cpu_ratio)}  median {st.median(cpu_ratio):.2f}  (goal <= 1.30)")
PY
