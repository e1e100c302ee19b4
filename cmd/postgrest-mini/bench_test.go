package main

import (
	"bufio"
	"bytes"
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shirou/gopsutil/v3/process"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// Benchmarks run the real binary with a closed-model load of `clients`
// concurrent keep-alive connections over loopback HTTP, bounded by b.N
// requests and a 2-minute guard. They report req/s, the CPU time per
// request of the postgrest-mini process (srv-µs/req) and of its PostgreSQL
// backends (pg-µs/req). Example (2-core machine, shared):
//
//	go test ./cmd/postgrest-mini -run '^$' -bench . -benchtime 3000x
const clients = 10

type scenario struct {
	name string
	path func(i int) string
}

var (
	getSingle      = scenario{"GETSingle", func(i int) string { return "/artist?select=*&artist_id=eq." + strconv.Itoa(i%275+1) }}
	getSingleEmbed = scenario{"GETSingleEmbed", func(i int) string {
		return "/album?select=*,track(*,genre(*))&artist_id=eq." + strconv.Itoa(i%347+1)
	}}
)

// BenchmarkGET: GETSingle and GETSingleEmbed, TCP vs Unix-socket db-uri,
// db-pool = 10, log-level = crit (the setup of postgrest-measured-here.md).
func BenchmarkGET(b *testing.B) {
	db := labtest.Chinook(b)
	procs := map[string]*proc{
		"tcp":  startProc(b, db, db.TCPURI("authenticator"), "db-pool = 10\nlog-level = \"crit\"\n", false),
		"unix": startProc(b, db, db.UnixURI("authenticator"), "db-pool = 10\nlog-level = \"crit\"\n", false),
	}
	for _, sc := range []scenario{getSingle, getSingleEmbed} {
		for _, tr := range []string{"tcp", "unix"} {
			b.Run(sc.name+"/db="+tr, func(b *testing.B) { load(b, db, procs[tr], sc, false) })
		}
	}
}

// BenchmarkPrepared: GETSingle with db-prepared-statements on and off.
func BenchmarkPrepared(b *testing.B) {
	db := labtest.Chinook(b)
	for _, on := range []string{"true", "false"} {
		p := startProc(b, db, db.UnixURI("authenticator"), "db-prepared-statements = "+on+"\nlog-level = \"crit\"\n", false)
		b.Run("GETSingle/prepared="+on, func(b *testing.B) { load(b, db, p, getSingle, false) })
	}
}

// BenchmarkLogLevel: GETSingle at log-level crit vs info (one unbuffered
// access-log line per request, to a pipe read by the test).
func BenchmarkLogLevel(b *testing.B) {
	db := labtest.Chinook(b)
	for _, lvl := range []string{"crit", "info"} {
		p := startProc(b, db, db.UnixURI("authenticator"), "log-level = \""+lvl+"\"\n", false)
		b.Run("GETSingle/log="+lvl, func(b *testing.B) { load(b, db, p, getSingle, false) })
	}
}

// BenchmarkPool: db-pool = 1 vs 10 under the same 10 clients. Besides
// throughput it reports the peak number of pool connections in use and of
// requests waiting for one, sampled from /metrics every 5 ms.
func BenchmarkPool(b *testing.B) {
	db := labtest.Chinook(b)
	for _, size := range []int{1, 10} {
		p := startProc(b, db, db.UnixURI("authenticator"), "db-pool = "+strconv.Itoa(size)+"\nlog-level = \"crit\"\n", false)
		b.Run("GETSingleEmbed/pool="+strconv.Itoa(size), func(b *testing.B) { load(b, db, p, getSingleEmbed, true) })
	}
}

func load(b *testing.B, db labtest.DB, p *proc, sc scenario, sample bool) {
	if st, body := p.get(b, sc.path(0)); st != 200 {
		b.Fatalf("%s: %d %s", sc.name, st, body)
	}
	// warm up concurrently: open every pool connection and fill statement
	// caches, so the backends measured are the ones that serve the load
	drive(p, sc, 20*clients, time.Now().Add(30*time.Second))
	cpu := newCPUMeter(b, db, p.cmd.Process.Pid)
	var stopSampler func() (int, int)
	if sample {
		stopSampler = samplePool(p)
	}
	b.ResetTimer()
	start := time.Now()
	done, failed := drive(p, sc, b.N, time.Now().Add(2*time.Minute))
	elapsed := time.Since(start)
	b.StopTimer()
	n := float64(done)
	srv, pg := cpu.since()
	b.ReportMetric(n/elapsed.Seconds(), "req/s")
	b.ReportMetric(srv.Seconds()*1e6/n, "srv-µs/req")
	b.ReportMetric(pg.Seconds()*1e6/n, "pg-µs/req")
	if stopSampler != nil {
		inUse, waiting := stopSampler()
		b.ReportMetric(float64(inUse), "peak-conns")
		b.ReportMetric(float64(waiting), "peak-waiting")
	}
	if f := failed; f > 0 {
		b.Fatalf("%d of %.0f requests failed", f, n)
	}
}

// drive sends n requests from `clients` concurrent clients (or fewer if the
// guard time passes) and returns how many were sent and how many failed.
func drive(p *proc, sc scenario, n int, guard time.Time) (int64, int64) {
	var next, sent, failed atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || time.Now().After(guard) {
					return
				}
				sent.Add(1)
				st, _, err := p.client.GetTimeout(nil, p.api+sc.path(int(i)), 30*time.Second)
				if err != nil || st != 200 {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return sent.Load(), failed.Load()
}

// cpuMeter reads the CPU time of postgrest-mini and of its backends.
type cpuMeter struct {
	procs     []*process.Process // [0] = postgrest-mini
	srv0, pg0 time.Duration
}

func newCPUMeter(b *testing.B, db labtest.DB, pid int) *cpuMeter {
	conn, err := pgx.Connect(context.Background(), db.UnixURI("postgres"))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'postgrest-mini'`, db.Name)
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	m := &cpuMeter{}
	for _, p := range append([]int32{int32(pid)}, pids...) {
		pr, err := process.NewProcess(p)
		if err != nil {
			b.Fatal(err)
		}
		m.procs = append(m.procs, pr)
	}
	m.srv0, m.pg0 = m.read()
	return m
}

func (m *cpuMeter) read() (srv, pg time.Duration) {
	for i, p := range m.procs {
		t, err := p.Times()
		if err != nil {
			continue // a backend that went away
		}
		d := time.Duration((t.User + t.System) * float64(time.Second))
		if i == 0 {
			srv = d
		} else {
			pg += d
		}
	}
	return srv, pg
}

func (m *cpuMeter) since() (srv, pg time.Duration) {
	s, p := m.read()
	return s - m.srv0, p - m.pg0
}

// samplePool polls /metrics; the returned stop gives the peaks of
// connections in use (max - available) and of waiting requests
// (waiting - in use).
func samplePool(p *proc) func() (int, int) {
	done := make(chan struct{})
	var inUse, waiting int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			_, body, err := p.client.GetTimeout(nil, p.admin+"/metrics", time.Second)
			if err != nil {
				continue
			}
			m := parseMetrics(body)
			// the waiting gauge counts requests waiting for or using a
			// connection, as PostgREST 13's does
			used := m["pgrst_db_pool_max"] - m["pgrst_db_pool_available"]
			inUse = max(inUse, used)
			waiting = max(waiting, m["pgrst_db_pool_waiting"]-used)
		}
	}()
	return func() (int, int) { close(done); wg.Wait(); return inUse, waiting }
}

func parseMetrics(body []byte) map[string]int {
	m := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 2 && f[0][0] != '#' {
			n, _ := strconv.Atoi(string(f[1]))
			m[string(f[0])] = n
		}
	}
	return m
}
