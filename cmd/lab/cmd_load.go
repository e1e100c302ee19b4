package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

func init() {
	register(command{name: "load", summary: "generate HTTP load (open or closed model) and report latency", run: cmdLoad})
}

const loadUsage = `load --url URL [--unix-socket PATH] (--rate N | --connections N) --duration D
         [--scenario NAME[:WEIGHT],... | --method M [--body-file F] [--header 'K: V']...]
         [--threads N] [--cpus LIST] [--json | --k6]
       load ... --rate START --search [--limit-p99 D --limit-errors F --limit-dropped F]
       load ... --rate N --ramp R1,R2,...

Without --scenario, one request is sent to URL's path and query (which may
hold {rand LO HI} and {seq START} fields). Built-in scenarios: `

type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

func cmdLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("load", loadUsage+strings.Join(loadgen.BuiltinNames(), ", ")+"\n", stdout)
	url := fs.String("url", "", "target URL (http://127.0.0.1:3000[/base][/path?query])")
	sock := fs.String("unix-socket", "", "dial this Unix socket instead of URL's host")
	rate := fs.Float64("rate", 0, "open model: requests per second")
	maxIn := fs.Int("max-in-flight", 0, "open model: bound on requests in flight (0: rate/20, at least 100, at most 2000)")
	conns := fs.Int("connections", 0, "closed model: connections")
	think := fs.Duration("think", 0, "closed model: pause between an answer and the next request")
	dur := fs.Duration("duration", 10*time.Second, "measured duration")
	warm := fs.Duration("warmup", 0, "warm-up before the measured part (discarded)")
	maxReq := fs.Int64("max-requests", 0, "stop after this many measured requests (0: no bound)")
	timeout := fs.Duration("timeout", loadgen.DefaultTimeout, "per-request timeout")
	seed := fs.Int64("seed", 1, "seed of the random template values")
	threads := fs.Int("threads", 0, "GOMAXPROCS of the generator (0: unchanged)")
	cpus := fs.String("cpus", "", "pin the generator's threads to these CPUs (e.g. 0 or 0,1)")
	scen := fs.String("scenario", "", "built-in scenario(s), NAME[:WEIGHT],...")
	method := fs.String("method", "GET", "method of the request (without --scenario)")
	body := fs.String("body", "", "request body (without --scenario)")
	bodyFile := fs.String("body-file", "", "file holding the request body (without --scenario)")
	expect := fs.Int("expect", 0, "expected status (0: any 2xx)")
	var headers headerFlags
	fs.Var(&headers, "header", "request header 'Name: value' (repeatable)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	series := fs.Bool("series", false, "with --json: include the per-second series")
	k6 := fs.Bool("k6", false, "print the k6-style benchmark table row")
	search := fs.Bool("search", false, "search the highest rate meeting the --limit-* flags (open model, --rate is the start)")
	ramp := fs.String("ramp", "", "open model at each of these rates in turn, e.g. 1000,2000,4000 (reports the curve)")
	limP99 := fs.Duration("limit-p99", 50*time.Millisecond, "with --search: p99 limit")
	limErr := fs.Float64("limit-errors", 0.001, "with --search: error rate limit")
	limDrop := fs.Float64("limit-dropped", 0.01, "with --search: dropped rate limit")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("load: unexpected arguments %q", fs.Args())
	}
	cfg := loadgen.Config{Duration: *dur, Warmup: *warm, MaxRequests: *maxReq, Timeout: *timeout,
		Seed: *seed, Threads: *threads, Target: loadgen.Target{URL: *url, UnixSocket: *sock}}
	switch {
	case *rate > 0 && *conns > 0:
		return usageErrorf("load: --rate (open model) and --connections (closed model) exclude each other")
	case *rate > 0:
		cfg.Open = &loadgen.Open{Rate: *rate, MaxInFlight: *maxIn}
	case *conns > 0:
		cfg.Closed = &loadgen.Closed{Connections: *conns, Think: *think}
	default:
		return usageErrorf("load: one of --rate N or --connections N is required")
	}
	if *cpus != "" {
		for _, f := range strings.Split(*cpus, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return usageErrorf("load: --cpus %q: want CPU numbers like 0,1", *cpus)
			}
			cfg.CPUs = append(cfg.CPUs, n)
		}
	}
	if *scen != "" {
		var clash []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "method", "body", "body-file", "header", "expect":
				clash = append(clash, "--"+f.Name)
			}
		})
		if len(clash) > 0 {
			return usageErrorf("load: %s apply only without --scenario (a user-defined request)", strings.Join(clash, ", "))
		}
		for _, part := range strings.Split(*scen, ",") {
			name, w := part, 1.0
			if i := strings.LastIndexByte(part, ':'); i >= 0 {
				v, err := strconv.ParseFloat(part[i+1:], 64)
				if err != nil || v <= 0 {
					return usageErrorf("load: --scenario %q: weight %q must be a positive number", *scen, part[i+1:])
				}
				name, w = part[:i], v
			}
			s, err := loadgen.Builtin(strings.TrimSpace(name))
			if err != nil {
				return usageErrorf("load: --scenario: %v", err)
			}
			cfg.Mix = append(cfg.Mix, loadgen.Weighted{Scenario: s, Weight: w})
		}
	} else {
		base, path := splitURL(*url)
		cfg.Target.URL = base
		req := loadgen.Request{Method: *method, Path: path, Expect: *expect, Body: []byte(*body)}
		if *bodyFile != "" {
			b, err := os.ReadFile(*bodyFile)
			if err != nil {
				return usageErrorf("load: --body-file: %v", err)
			}
			req.Body = b
		}
		if len(headers) > 0 {
			req.Header = map[string]string{}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok {
					return usageErrorf("load: --header %q: want 'Name: value'", h)
				}
				req.Header[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		cfg.Mix = []loadgen.Weighted{{Scenario: loadgen.Scenario{Name: *method + " " + path, Requests: []loadgen.Request{req}}, Weight: 1}}
	}
	if errs := cfg.Validate(); len(errs) > 0 {
		var b strings.Builder
		for _, e := range errs {
			b.WriteString("\n  " + e.Error())
		}
		return usageErrorf("load: invalid settings:%s", b.String())
	}
	progress := loadgen.TerminalProgress(os.Stderr)
	if progress != nil {
		defer fmt.Fprint(os.Stderr, "\r\033[K") // clear the status line whatever happened
	}
	lim := loadgen.Limit{P99: *limP99, MaxErrorRate: *limErr, MaxDroppedRate: *limDrop}
	if *ramp != "" {
		if cfg.Open == nil {
			return usageErrorf("load: --ramp needs the open model (--rate, any value)")
		}
		var rates []float64
		for _, f := range strings.Split(*ramp, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || v <= 0 {
				return usageErrorf("load: --ramp %q: %q is not a positive rate", *ramp, f)
			}
			rates = append(rates, v)
		}
		sr, err := loadgen.Ramp(ctx, cfg, rates, lim, false, progress)
		if err != nil {
			return err
		}
		if *asJSON {
			return loadgen.WriteSearchJSON(stdout, sr)
		}
		return loadgen.WriteSearchText(stdout, sr)
	}
	if *search {
		if cfg.Open == nil {
			return usageErrorf("load: --search needs --rate (the starting rate)")
		}
		sr, err := loadgen.Search(ctx, cfg, lim, progress)
		if err != nil {
			return err
		}
		if *asJSON {
			return loadgen.WriteSearchJSON(stdout, sr)
		}
		return loadgen.WriteSearchText(stdout, sr)
	}
	res, err := loadgen.Run(ctx, cfg, progress)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		return loadgen.WriteJSON(stdout, res, *series)
	case *k6:
		return loadgen.WriteK6Table(stdout, []*loadgen.Result{res})
	}
	return loadgen.WriteText(stdout, res)
}

// splitURL splits http://host[:port]/path?query into the base and the path
// (at least "/"), without parsing the path so template fields survive.
func splitURL(u string) (base, path string) {
	rest := u
	scheme := ""
	if i := strings.Index(u, "://"); i >= 0 {
		scheme, rest = u[:i+3], u[i+3:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		path = rest[i:]
		rest = rest[:i]
	}
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	return scheme + rest, path
}
