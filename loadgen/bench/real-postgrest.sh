#!/usr/bin/env bash
# real-postgrest.sh: the lab's load generator against wrk (closed model) and
# vegeta (open model) on real PostgREST, side by side in one run.
#
# A fresh stack (its own PostgreSQL and real PostgREST, $LAB_POSTGREST, with
# the Chinook fixture) serves GETSingle, /artist?select=*&artist_id=eq.3, on
# loopback. Each round runs, in alternating order, every client in turn on
# the same server, as users run it: no pinning, the generator shares the
# machine's cores with PostgREST and PostgreSQL.
#   closed: wrk -t1 -c$CONNS  vs  lab load --connections $CONNS --threads 1
#   open:   vegeta (GOMAXPROCS=1) vs lab load --rate R --threads 1, each R
# Generator CPU is user+sys of the client process (GNU time). With
# LAB_BEFORE (an older lab binary) every lab run is repeated with it in the
# same rounds: the table's before and after columns.
#
# Targets (issue 25): closed req/s >= 0.97x wrk's and CPU/req <= 1.0x; open
# CPU/req <= 1.5x wrk's closed figure, CPU/req at 500 <= 2x at 3000, rates
# exact. The closed rows are also compared at equal throughput (a fit over
# the rounds): a lab run that met a slow server is not read as a costly
# generator.
#
# Env: ROUNDS (3), DURATION (10s), RATES ("500 2000 3000"; RATES="" runs
# the closed rows alone, for a longer series of them), CONNS (10),
# LAB (built if unset), LAB_BEFORE (optional), LAB_POSTGREST (required),
# VEGETA (installed from the Go module proxy if unset and not on PATH).
# Needs wrk and GNU time (apt-get install -y wrk time). Loopback only; every
# load is bounded by DURATION.
set -euo pipefail
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
RATES=${RATES-"500 2000 3000"}
CONNS=${CONNS:-10}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${LAB_POSTGREST:?set LAB_POSTGREST to the real PostgREST executable}"
for tool in wrk /usr/bin/time python3; do
	command -v "$tool" >/dev/null || { echo "real-postgrest: $tool not found (apt-get install -y wrk time python3)" >&2; exit 1; }
done
tmp=$(mktemp -d)
chmod o+x "$tmp" # PostgreSQL runs as user postgres and must reach the stack in it
stack="$tmp/stack"
cleanup() {
	[ -x "${LAB:-}" ] && [ -d "$stack" ] && "$LAB" stack down --purge --dir "$stack" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -z "${LAB:-}" ]; then
	(cd "$root" && go build -o "$tmp/lab" ./cmd/lab)
	LAB="$tmp/lab"
fi
if [ -z "${VEGETA:-}" ]; then
	if command -v vegeta >/dev/null; then
		VEGETA=$(command -v vegeta)
	else
		echo "installing vegeta v12.13.0 from the Go module proxy..." >&2
		GOBIN="$tmp" go install github.com/tsenart/vegeta/v12@v12.13.0
		VEGETA="$tmp/vegeta"
	fi
fi
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$LAB" stack up --dir "$stack" --postgrest "$LAB_POSTGREST" >"$tmp/up.log" 2>&1 || { cat "$tmp/up.log" >&2; exit 1; }
"$LAB" fixture chinook --dir "$stack" >"$tmp/fixture.log" 2>&1 || { cat "$tmp/fixture.log" >&2; exit 1; }
base=$("$LAB" stack status --dir "$stack" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
url="$base/artist?select=*&artist_id=eq.3"
curl -fsS "$url" >/dev/null || { echo "real-postgrest: $url does not answer" >&2; exit 1; }
echo "target: $("$LAB_POSTGREST" --version 2>/dev/null | head -1) at $base; GETSingle ($url)"

# time_cpu OUT CMD...: runs CMD with its output in OUT, appends "user sys" to OUT.time.
time_cpu() {
	local out=$1
	shift
	/usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out" 2>"$out.err"
}
labs="after=$LAB"
[ -n "${LAB_BEFORE:-}" ] && labs="before=$LAB_BEFORE $labs"
: >"$tmp/rows"
# row ROUND KIND CLIENT REQS SECS OUT: one line of the table's raw rows.
row() { read -r u s <"$6.time"; echo "$1 $2 $3 $4 $5 $u $s" >>"$tmp/rows"; }
secs=${DURATION%s}
for r in $(seq "$ROUNDS"); do
	clients="wrk $labs"
	[ $((r % 2)) -eq 0 ] && clients=$(echo "$clients" | tr ' ' '\n' | tac | tr '\n' ' ')
	for c in $clients; do
		o="$tmp/out"
		if [ "$c" = wrk ]; then
			time_cpu "$o" wrk -t1 -c"$CONNS" -d"$DURATION" "$url"
			n=$(awk '/requests in/ { print $1 }' "$o")
			row "$r" closed wrk "$n" "$secs" "$o"
		else
			name=${c%%=*} bin=${c#*=}
			time_cpu "$o" "$bin" load --url "$url" --connections "$CONNS" --threads 1 --duration "$DURATION" --json
			n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["requests"])' "$o")
			row "$r" closed "lab-$name" "$n" "$secs" "$o"
		fi
		echo "round $r closed ${c%%=*}: $(tail -1 "$tmp/rows" | awk '{ printf "%.0f req/s, %.1f us CPU/req", $4/$5, 1e6*($6+$7)/$4 }')"
	done
	for rate in $RATES; do
		clients="vegeta $labs"
		[ $((r % 2)) -eq 0 ] && clients=$(echo "$clients" | tr ' ' '\n' | tac | tr '\n' ' ')
		for c in $clients; do
			o="$tmp/out"
			if [ "$c" = vegeta ]; then
				echo "GET $url" >"$tmp/target"
				GOMAXPROCS=1 time_cpu "$o" "$VEGETA" attack -targets "$tmp/target" -rate "$rate" -duration "$DURATION" -output "$tmp/vegeta.bin"
				n=$("$VEGETA" report -type json "$tmp/vegeta.bin" | python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
				row "$r" "open-$rate" vegeta "$n" "$secs" "$o"
			else
				name=${c%%=*} bin=${c#*=}
				time_cpu "$o" "$bin" load --url "$url" --rate "$rate" --threads 1 --duration "$DURATION" --json
				n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["requests"])' "$o")
				row "$r" "open-$rate" "lab-$name" "$n" "$secs" "$o"
			fi
			echo "round $r open $rate ${c%%=*}: $(tail -1 "$tmp/rows" | awk '{ printf "%.0f req/s, %.1f us CPU/req", $4/$5, 1e6*($6+$7)/$4 }')"
		done
	done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/rows" "$CONNS" <<'PY'
import math, sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
by, rounds = {}, {}  # rounds: the closed rows by round, for the pairing below
for r, kind, client, n, secs, u, s in rows:
    n, secs, cpu = int(n), float(secs), float(u) + float(s)
    x = (n / secs, 1e6 * cpu / max(1, n))
    by.setdefault((kind, client), []).append(x)
    if kind == "closed":
        rounds.setdefault(r, {})[client] = x
med = {k: (st.median(x for x, _ in v), st.median(y for _, y in v)) for k, v in by.items()}
labs = [c for c in ("lab-before", "lab-after") if ("closed", c) in med]
wrk_rate, wrk_cpu = med[("closed", "wrk")]
print(f"\nmedians of {len(by[('closed', 'wrk')])} rounds; CPU per request is the generator's (user+sys)\n")
print("| load | client | req/s | CPU per request | vs wrk closed |")
print("|---|---|---|---|---|")
print(f"| closed, {sys.argv[2]} connections | wrk -t1 | {wrk_rate:,.0f} | {wrk_cpu:.1f} µs | 1.00× |")
for c in labs:
    rate, cpu = med[("closed", c)]
    print(f"| closed | {c} | {rate:,.0f} ({rate / wrk_rate:.2f}×) | {cpu:.1f} µs | {cpu / wrk_cpu:.2f}× |")
kinds = sorted({k for k, _ in med if k.startswith("open-")}, key=lambda k: float(k[5:]))
for k in kinds:
    for c in ["vegeta"] + labs:
        if (k, c) in med:
            rate, cpu = med[(k, c)]
            print(f"| open {k[5:]} req/s | {c} | {rate:,.0f} | {cpu:.1f} µs | {cpu / wrk_cpu:.2f}× |")
# Paired per round: the lab against the wrk run of its own round, so the
# machine's drift between rounds (this VM's +-10 %) cancels out.
for c in labs:
    pairs = [(v[c][0] / v["wrk"][0], v[c][1] / v["wrk"][1]) for v in rounds.values() if c in v and "wrk" in v]
    if len(pairs) >= 3:
        q, w = sorted(x for x, _ in pairs), sorted(y for _, y in pairs)
        print(f"closed {c} vs wrk, paired in {len(pairs)} rounds: req/s {st.median(q):.2f}× [{q[0]:.2f}..{q[-1]:.2f}], "
              f"CPU/req {st.median(w):.2f}× [{w[0]:.2f}..{w[-1]:.2f}]; {sum(y <= 1 for y in w)} of {len(w)} rounds at or below wrk's CPU/req")
# At equal throughput: on a shared machine a client's CPU per request
# falls as the server answers faster (fewer answers per wake-up), and the
# server's speed swings between runs (this VM: 1,800 to 6,400 req/s in one
# series), so a round whose lab run met a slow server reads as a costly
# generator. A fit of log(CPU/req) on log(req/s), one slope for all
# clients and a level each, compares them at the same throughput.
closed = [(c, math.log(x), math.log(y)) for v in rounds.values() for c, (x, y) in v.items()]
if len(rounds) >= 3:
    g = {c: [(x, y) for k, x, y in closed if k == c] for c in {k for k, _, _ in closed}}
    mx = {c: st.mean(x for x, _ in v) for c, v in g.items()}
    my = {c: st.mean(y for _, y in v) for c, v in g.items()}
    sxx = sum((x - mx[c]) ** 2 for c, v in g.items() for x, _ in v)
    if sxx > 0:
        b = sum((x - mx[c]) * (y - my[c]) for c, v in g.items() for x, y in v) / sxx
        s2 = sum(((y - my[c]) - b * (x - mx[c])) ** 2 for c, v in g.items() for x, y in v) / max(1, len(closed) - len(g) - 1)
        for c in labs:
            d = (my[c] - my["wrk"]) - b * (mx[c] - mx["wrk"])
            se = math.sqrt(s2 * (1 / len(g[c]) + 1 / len(g["wrk"])) + (mx[c] - mx["wrk"]) ** 2 * s2 / sxx)
            print(f"closed {c} vs wrk at equal throughput (log CPU/req = level {b:+.2f} log req/s): "
                  f"CPU/req {math.exp(d):.2f}× [{math.exp(d - 1.96 * se):.2f}..{math.exp(d + 1.96 * se):.2f}] (95 %)")
if len(kinds) >= 2:
    # The issue's fixed cost is 500 against 3000 req/s; a rate above the
    # server's capacity (6000 on most days) says nothing about it.
    lo = "open-500" if "open-500" in kinds else kinds[0]
    hi = "open-3000" if "open-3000" in kinds else kinds[-1]
    for c in labs:
        print(f"fixed cost {c}: CPU/req at {lo[5:]} / at {hi[5:]} req/s = {med[(lo, c)][1] / med[(hi, c)][1]:.2f} (target <= 2)")
PY
