#!/usr/bin/env bash
# Profiling overhead: runs the bundled `binaries` experiment on GETSingle
# (two copies of one PostgREST, or $PGRST_RELEASE/$PGRST_BRANCH) N times
# without and N times with --profile, alternating, on the local stack, and
# prints the median throughput and server + database CPU per request of
# each mode, and perf's own CPU as a share of the services'.
#
#   PGRST=/path/to/postgrest bash experiments/profile-overhead.sh [N] [DURATION]   (default 3 runs of 5s trials)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-3}
dur=${2:-5s}
dir=${LAB_DIR:-.lab}
out=$(mktemp -d /tmp/lab-profile-overhead.XXXXXX)
make -s build
if [ -z "${PGRST_RELEASE:-}" ]; then
  cp "${PGRST:?set PGRST to a PostgREST binary, or PGRST_RELEASE and PGRST_BRANCH}" "$out/pgrst-a"
  cp "$PGRST" "$out/pgrst-b"
  export PGRST_RELEASE=$out/pgrst-a PGRST_BRANCH=$out/pgrst-b
fi
sed 's/^scenarios = .*/scenarios = ["GETSingle"]/' experiments/binaries.toml >"$out/binaries.toml"
for i in $(seq "$n"); do
  for mode in plain profile; do
    flag=(); [ "$mode" = profile ] && flag=(--profile)
    bin/lab run "$out/binaries.toml" --dir "$dir" --results "$out/$mode" --min-trials 2 --max-trials 2 \
      --duration "$dur" --warmup 2s "${flag[@]}" >"$out/run-$i-$mode.log" 2>&1 ||
      { echo "run $i ($mode) failed, see $out/run-$i-$mode.log"; tail -5 "$out/run-$i-$mode.log"; exit 1; }
  done
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
for mode in ("plain", "profile"):
    rate, cpu, perf, svc, other = [], [], 0.0, 0.0, []
    for f in glob.glob(f"{sys.argv[1]}/{mode}/binaries/*/run.json"):
        for t in json.load(open(f))["trials"]:
            if t.get("error"):
                continue
            rate.append(t["load"]["rate"])
            cpu.append(t["server"]["cpu_per_request_us"] + t["database"]["cpu_per_request_us"])
            other.append((t.get("interference") or {}).get("share", 0))
            svc += t["server"]["cpu_seconds"] + t["database"]["cpu_seconds"]
            perf += (t.get("profile") or {}).get("perf_cpu_seconds", 0)
    print(f"{mode:8s} {len(rate)} trials: {statistics.median(rate):.0f} req/s (range {min(rate):.0f}-{max(rate):.0f}), "
          f"{statistics.median(cpu):.0f} µs/req server + database CPU, other work {statistics.median(other):.0%} of the CPUs"
          + (f", perf itself {perf:.2f} s = {100 * perf / svc:.2f}% of the services' CPU" if mode == "profile" else ""))
PY
