#!/usr/bin/env bash
# Duet probe: how much of the sequential design's noise would measuring both
# variants at the same time take out? Starts two extra PostgREST processes
# (A and B, the stack's binary) on a running stack's PostgreSQL, loads each
# with GETSingle at RATE req/s for WINDOWS windows of 8 s, and reads the CPU
# of each process and of its own PostgreSQL backends (told apart by
# application_name) per window. It prints the scatter of the per-window
# ratio B/A (the duet's noise) next to that of A against itself in the next
# window (what two trials measured one after the other see).
#
#   bash experiments/duet-probe.sh MODE [RATE] [WINDOWS]
#     MODE  aa: both over TCP (an A/A); ab: A over TCP, B over the Unix socket
#     RATE  per process (default 1000: together about 65% of real PostgREST's
#           capacity on a 2-core VM); WINDOWS default 24 (about 3.5 minutes)
#
# Needs a stack (`bin/lab stack up --dir "$LAB_DIR"`, default .lab, with
# the Chinook fixture). Traffic stays on loopback; the two processes are
# stopped at the end. A measurement, not a test: run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: duet-probe.sh aa|ab [RATE] [WINDOWS]}
rate=${2:-1000}
windows=${3:-24}
dir=${LAB_DIR:-.lab}
[ -f "$dir/stack.json" ] || { echo "no stack in $dir: bin/lab stack up --dir $dir && bin/lab fixture chinook --dir $dir" >&2; exit 1; }
make -s build
python3 - "$dir" "$mode" "$rate" "$windows" <<'PY'
import json, math, os, socket, statistics as st, subprocess, sys, tempfile, time, urllib.request

sdir, mode, rate, windows = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
if mode not in ("aa", "ab"):
    sys.exit(f"duet-probe: MODE {mode!r}: allowed values are aa and ab")
if not (0 < rate <= 20000 and 2 <= windows <= 200):
    sys.exit("duet-probe: RATE must be in (0, 20000] and WINDOWS in 2..200")
WIN = 8.0
stk = json.load(open(os.path.join(sdir, "stack.json")))
port, sock, binary = stk["pg_port"], os.path.abspath(os.path.join(sdir, "pg-socket")), stk["binary"]
psql = os.path.join(stk["pg_bin_dir"], "psql")
tck = os.sysconf("SC_CLK_TCK")
work = tempfile.mkdtemp(prefix="lab-duet.")

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def uri(kind, app):
    if kind == "tcp":
        return f"postgres://authenticator@127.0.0.1:{port}/chinook?application_name={app}"
    return f"postgres://authenticator@/chinook?host={sock}&port={port}&application_name={app}"

def cpu(pid):  # seconds of user + system CPU, 0 once the process is gone
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(f[11]) + int(f[12])) / tck

def backends():
    q = "select pid, application_name from pg_stat_activity where application_name in ('duetA', 'duetB')"
    out = subprocess.run([psql, "-h", sock, "-p", str(port), "-U", "authenticator", "-d", "chinook", "-Atc", q],
                         capture_output=True, text=True, check=True).stdout
    m = {"duetA": [], "duetB": []}
    for line in out.split():
        pid, app = line.split("|")
        m[app].append(int(pid))
    return m

procs, ports, loads = [], [], []
try:
    for name, kind in zip("AB", ("tcp", "tcp") if mode == "aa" else ("tcp", "unix")):
        p, admin = free_port(), free_port()
        conf = os.path.join(work, f"{name}.conf")
        with open(conf, "w") as f:
            f.write(f'db-uri = "{uri(kind, "duet" + name)}"\ndb-schemas = "public"\ndb-anon-role = "web_anon"\n'
                    f'server-host = "127.0.0.1"\nserver-port = {p}\nadmin-server-port = {admin}\nlog-level = "crit"\ndb-pool = 10\n')
        procs.append(subprocess.Popen([binary, conf], stdout=subprocess.DEVNULL, stderr=open(conf + ".log", "w")))
        ports.append((p, admin))
        print(f"{name}: {kind}, port {p} (pid {procs[-1].pid})", flush=True)
    for p, admin in ports:
        for _ in range(300):
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{admin}/ready", timeout=1).status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit(f"duet-probe: PostgREST on port {p} not ready after 30 s (see {work})")
    total = windows * WIN + 6
    for p, _ in ports:
        loads.append(subprocess.Popen(["bin/lab", "load", "--url", f"http://127.0.0.1:{p}/", "--scenario", "GETSingle",
                                       "--rate", str(rate), "--duration", f"{total}s"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    time.sleep(4)  # warm-up: the pools fill, the caches warm

    def snap():
        b = backends()
        return {"t": time.time(), "A": cpu(procs[0].pid), "B": cpu(procs[1].pid),
                "dA": sum(map(cpu, b["duetA"])), "dB": sum(map(cpu, b["duetB"]))}
    rows, prev = [], snap()
    for w in range(windows):
        time.sleep(max(0.0, prev["t"] + WIN - time.time()))
        cur = snap()
        rows.append({k: cur[k] - prev[k] for k in ("A", "B", "dA", "dB")})
        r = rows[-1]
        print(f"window {w + 1:2d}/{windows}: A {r['A']:.2f}+{r['dA']:.2f} s  B {r['B']:.2f}+{r['dB']:.2f} s CPU", flush=True)
        prev = cur
finally:
    for l in loads:
        l.terminate()
    for p in procs:
        p.terminate()
    for p in procs + loads:
        p.wait()

def lr(a, b):
    return [math.log(y / x) for x, y in zip(a, b) if x > 0 and y > 0]
def pct(x):
    return 100 * (math.exp(x) - 1)
tot = lambda k: [r[k] + r["d" + k] for r in rows]
duet = lr(tot("A"), tot("B"))
srv, db = lr([r["A"] for r in rows], [r["B"] for r in rows]), lr([r["dA"] for r in rows], [r["dB"] for r in rows])
seq = lr(tot("A")[0::2], tot("A")[1::2])
print(f"\n{mode}, {len(rows)} windows of {WIN:.0f} s at {rate:.0f} req/s each:")
print(f"  duet, B/A in the same window: server + database CPU {pct(st.median(duet)):+.2f}% (per-window scatter {100 * st.stdev(duet):.2f}%); "
      f"server {pct(st.median(srv)):+.2f}%, database {pct(st.median(db)):+.2f}%")
print(f"  one after the other, A in window w+1 / w: scatter {100 * st.stdev(seq):.2f}% ({len(seq)} pairs)")
PY
