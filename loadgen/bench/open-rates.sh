#!/usr/bin/env bash
# open-rates.sh: the open model of `lab load` at several rates against the
# trivial server: asked vs achieved rate, dropped, p50/p99 latency (from the
# intended start), service p99 and client CPU per request (user+sys).
# Server pinned to CPU 1, client to CPU 0; rounds alternate the rate order.
#
# Env: RATES ("100 1000 5000 10000 20000"), ROUNDS (3), DURATION (10s),
# PORT (18081), SERVER_CPU (1), CLIENT_CPU (0), LAB (built if unset).
# "send delay" is how late requests left compared with the schedule: the
# generator's own share of the latency.
# Goals (issue 6): rate within 1%; at 20000 req/s 0 dropped, p99 <= 5 ms,
# <= 45 µs CPU per request.
set -euo pipefail
RATES=${RATES:-"100 1000 5000 10000 20000"}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
PORT=${PORT:-18081}
SERVER_CPU=${SERVER_CPU:-1}
CLIENT_CPU=${CLIENT_CPU:-0}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
srv_pid=""
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
(cd "$root" && go build -o "$tmp/trivialserver" ./loadgen/bench/trivialserver)
if [ -z "${LAB:-}" ]; then
	(cd "$root" && go build -o "$tmp/lab" ./cmd/lab)
	LAB="$tmp/lab"
fi
taskset -c "$SERVER_CPU" "$tmp/trivialserver" -addr "127.0.0.1:$PORT" &
srv_pid=$!
for _ in $(seq 50); do
	if (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null; then break; fi
	sleep 0.1
done
: >"$tmp/rows"
: >"$tmp/cap"
for r in $(seq "$ROUNDS"); do
	# What the server can do right now (the machine is shared): wrk, closed, 50 connections.
	if command -v wrk >/dev/null; then
		taskset -c "$CLIENT_CPU" wrk -t1 -c50 -d2s "http://127.0.0.1:$PORT/" | awk '/Requests\/sec/ { print $2 }' | tee -a "$tmp/cap" |
			awk -v r="$r" '{ printf "round %s: server capacity now (wrk -t1 -c50, 2s): %.0f req/s\n", r, $1 }'
	fi
	rates=$RATES
	if [ $((r % 2)) -eq 0 ]; then rates=$(echo "$RATES" | tr ' ' '\n' | tac | tr '\n' ' '); fi
	for rate in $rates; do
		taskset -c "$CLIENT_CPU" /usr/bin/time -f '%U %S' -o "$tmp/time" \
			"$LAB" load --url "http://127.0.0.1:$PORT/" --rate "$rate" --duration "$DURATION" --json >"$tmp/out"
		python3 - "$tmp/out" "$tmp/time" "$rate" "$r" <<'PY' >>"$tmp/rows"
import json, sys
j = json.load(open(sys.argv[1])); u, s = map(float, open(sys.argv[2]).read().split()[-2:])
print(sys.argv[4], sys.argv[3], j["rate"], j["dropped"], j["latency_ms"]["p50"], j["latency_ms"]["p99"],
      j["service_ms"]["p99"], 1e6 * (u + s) / max(1, j["requests"]), j["send_delay_ms"]["p99"])
PY
		tail -1 "$tmp/rows" | awk '{ printf "round %s rate %6s: got %9.1f req/s, dropped %6d, p50 %7.2f ms, p99 %7.2f ms, service p99 %7.2f ms, send delay p99 %6.2f ms, %6.1f us CPU/req\n", $1, $2, $3, $4, $5, $6, $7, $9, $8 }'
	done
done
python3 - "$tmp/rows" "$tmp/cap" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
caps = [float(l) for l in open(sys.argv[2]) if l.strip()]
if caps:
    print(f"server capacity (wrk closed, per round): {' '.join(f'{c:.0f}' for c in caps)}; rates above it cannot be held")
by = {}
for r in rows:
    by.setdefault(float(r[1]), []).append([float(x) for x in r[2:]])
print(f"{'asked':>7} {'got (median)':>12} {'err%':>6} {'dropped':>8} {'p50 ms':>7} {'p99 ms':>7} {'svc p99':>7} {'µs CPU/req':>10} {'send p99':>8}   (medians of {len(rows)//len(by)} rounds)")
for rate in sorted(by):
    cols = list(zip(*by[rate]))
    m = [st.median(c) for c in cols]
    print(f"{rate:7.0f} {m[0]:12.1f} {100*(m[0]-rate)/rate:6.2f} {m[1]:8.0f} {m[2]:7.2f} {m[3]:7.2f} {m[4]:7.2f} {m[5]:10.1f} {m[6]:8.2f}")
PY
