package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
	"github.com/pgrst-lab/pgrst-lab/lab/report/load"
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

// loadFlags are the command line of `lab load`.
type loadFlags struct {
	fs                                  *flag.FlagSet
	url, sock, cpus, scen, method, body *string
	bodyFile, ramp                      *string
	rate, limErr, limDrop               *float64
	maxIn, conns, threads, expect       *int
	think, dur, warm, timeout, limP99   *time.Duration
	maxLate                             *time.Duration
	maxReq, seed                        *int64
	asJSON, series, k6, search          *bool
	headers                             headerFlags
}

func newLoadFlags(stdout io.Writer) *loadFlags {
	fs := newFlags("load", loadUsage+strings.Join(loadgen.BuiltinNames(), ", ")+"\n", stdout)
	f := &loadFlags{fs: fs}
	f.url = fs.String("url", "", "target URL (http://127.0.0.1:3000[/base][/path?query])")
	f.sock = fs.String("unix-socket", "", "dial this Unix socket instead of URL's host")
	f.rate = fs.Float64("rate", 0, "open model: requests per second")
	f.maxIn = fs.Int("max-in-flight", 0, "open model: bound on requests in flight (0: rate/20, at least 100, at most 2000)")
	f.maxLate = fs.Duration("max-late", 0, "open model: how late a request due while every connection is busy may still leave, waiting for one (0: "+loadgen.DefaultMaxLate.String()+"; negative: dropped at once)")
	f.conns = fs.Int("connections", 0, "closed model: connections")
	f.think = fs.Duration("think", 0, "closed model: pause between an answer and the next request")
	f.dur = fs.Duration("duration", 10*time.Second, "measured duration")
	f.warm = fs.Duration("warmup", 0, "warm-up before the measured part (discarded)")
	f.maxReq = fs.Int64("max-requests", 0, "stop after this many measured requests (0: no bound)")
	f.timeout = fs.Duration("timeout", loadgen.DefaultTimeout, "per-request timeout")
	f.seed = fs.Int64("seed", 1, "seed of the random template values")
	f.threads = fs.Int("threads", 0, "GOMAXPROCS of the generator (0: unchanged)")
	f.cpus = fs.String("cpus", "", "pin the generator's threads to these CPUs (e.g. 0 or 0,1)")
	f.scen = fs.String("scenario", "", "built-in scenario(s), NAME[:WEIGHT],...")
	f.method = fs.String("method", "GET", "method of the request (without --scenario)")
	f.body = fs.String("body", "", "request body (without --scenario)")
	f.bodyFile = fs.String("body-file", "", "file holding the request body (without --scenario)")
	f.expect = fs.Int("expect", 0, "expected status (0: any 2xx)")
	fs.Var(&f.headers, "header", "request header 'Name: value' (repeatable)")
	f.asJSON = fs.Bool("json", false, "print one JSON object")
	f.series = fs.Bool("series", false, "with --json: include the per-second series")
	f.k6 = fs.Bool("k6", false, "print the metrics of k6's end-of-test summary, each as k6 defines it")
	f.search = fs.Bool("search", false, "search the highest rate meeting the --limit-* flags (open model, --rate is the start)")
	f.ramp = fs.String("ramp", "", "open model at each of these rates in turn, e.g. 1000,2000,4000 (reports the curve)")
	f.limP99 = fs.Duration("limit-p99", 50*time.Millisecond, "with --search: p99 limit")
	f.limErr = fs.Float64("limit-errors", 0.001, "with --search: error rate limit")
	f.limDrop = fs.Float64("limit-dropped", 0.01, "with --search: dropped rate limit")
	return f
}

func cmdLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := newLoadFlags(stdout)
	if help, err := parseFlags(f.fs, args); help || err != nil {
		return err
	}
	if f.fs.NArg() > 0 {
		return usageErrorf("load: unexpected arguments %q", f.fs.Args())
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	var progress func(loadgen.Progress)
	if tty, ok := stderr.(*os.File); ok {
		if progress = loadgen.TerminalProgress(tty); progress != nil {
			defer fmt.Fprint(stderr, "\r\033[K") // clear the status line whatever happened
		}
	}
	lim := loadgen.Limit{P99: *f.limP99, MaxErrorRate: *f.limErr, MaxDroppedRate: *f.limDrop}
	switch {
	case *f.ramp != "":
		rates, err := f.rampRates(cfg)
		if err != nil {
			return err
		}
		sr, err := loadgen.Ramp(ctx, cfg, rates, lim, false, progress)
		return f.writeSearch(stdout, sr, err)
	case *f.search:
		if cfg.Open == nil {
			return usageErrorf("load: --search needs --rate (the starting rate)")
		}
		sr, err := loadgen.Search(ctx, cfg, lim, progress)
		return f.writeSearch(stdout, sr, err)
	}
	res, err := loadgen.Run(ctx, cfg, progress)
	if err != nil {
		return err
	}
	switch {
	case *f.asJSON:
		return load.JSON(stdout, loadResult(res.Summary, res.Series), *f.series)
	case *f.k6:
		return load.K6Table(stdout, []*load.Result{loadResult(res.Summary, res.Series)})
	}
	return load.Text(stdout, loadResult(res.Summary, res.Series))
}

// config turns the flags into a validated generator config.
func (f *loadFlags) config() (loadgen.Config, error) {
	cfg := loadgen.Config{Duration: *f.dur, Warmup: *f.warm, MaxRequests: *f.maxReq, Timeout: *f.timeout,
		Seed: *f.seed, Threads: *f.threads, Target: loadgen.Target{URL: *f.url, UnixSocket: *f.sock}, ServerTiming: true}
	switch {
	case *f.rate > 0 && *f.conns > 0:
		return cfg, usageErrorf("load: --rate (open model) and --connections (closed model) exclude each other")
	case *f.rate > 0:
		cfg.Open = &loadgen.Open{Rate: *f.rate, MaxInFlight: *f.maxIn, MaxLate: *f.maxLate}
	case *f.conns > 0:
		cfg.Closed = &loadgen.Closed{Connections: *f.conns, Think: *f.think}
	default:
		return cfg, usageErrorf("load: one of --rate N or --connections N is required")
	}
	var err error
	if *f.cpus != "" {
		if cfg.CPUs, err = cpulist.Parse(*f.cpus); err != nil {
			return cfg, usageErrorf("load: --cpus: %v", err)
		}
	}
	if *f.scen != "" {
		cfg.Mix, err = f.builtinMix()
	} else {
		var base string
		base, cfg.Mix, err = f.customMix()
		cfg.Target.URL = base
	}
	if err != nil {
		return cfg, err
	}
	if errs := cfg.Validate(); len(errs) > 0 {
		var b strings.Builder
		for _, e := range errs {
			b.WriteString("\n  " + e.Error())
		}
		return cfg, usageErrorf("load: invalid settings:%s", b.String())
	}
	return cfg, nil
}

// builtinMix reads --scenario NAME[:WEIGHT],... (and refuses the flags of a
// user-defined request beside it).
func (f *loadFlags) builtinMix() ([]loadgen.Weighted, error) {
	var clash []string
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "method", "body", "body-file", "header", "expect":
			clash = append(clash, "--"+fl.Name)
		}
	})
	if len(clash) > 0 {
		return nil, usageErrorf("load: %s apply only without --scenario (a user-defined request)", strings.Join(clash, ", "))
	}
	mix, err := loadgen.ParseMix(*f.scen)
	if err != nil {
		return nil, usageErrorf("load: --scenario: %v", err)
	}
	return mix, nil
}

// customMix is the one request of --url's path with --method, --body(-file),
// --header and --expect; base is --url without the path.
func (f *loadFlags) customMix() (base string, mix []loadgen.Weighted, err error) {
	base, path := loadgen.SplitURL(*f.url)
	req := loadgen.Request{Method: *f.method, Path: path, Expect: *f.expect, Body: []byte(*f.body)}
	if *f.bodyFile != "" {
		b, err := os.ReadFile(*f.bodyFile)
		if err != nil {
			return "", nil, usageErrorf("load: --body-file: %v", err)
		}
		req.Body = b
	}
	if len(f.headers) > 0 {
		req.Header = map[string]string{}
		for _, h := range f.headers {
			k, v, err := loadgen.ParseHeader(h)
			if err != nil {
				return "", nil, usageErrorf("load: --header %v", err)
			}
			req.Header[k] = v
		}
	}
	return base, []loadgen.Weighted{{Scenario: loadgen.Scenario{Name: *f.method + " " + path, Requests: []loadgen.Request{req}}, Weight: 1}}, nil
}

// rampRates reads --ramp R1,R2,...
func (f *loadFlags) rampRates(cfg loadgen.Config) ([]float64, error) {
	if cfg.Open == nil {
		return nil, usageErrorf("load: --ramp needs the open model (--rate, any value)")
	}
	rates, err := loadgen.ParseRates(*f.ramp)
	if err != nil {
		return nil, usageErrorf("load: --ramp %v", err)
	}
	return rates, nil
}

func (f *loadFlags) writeSearch(w io.Writer, sr *loadgen.SearchResult, err error) error {
	if err != nil {
		return err
	}
	if *f.asJSON {
		return load.SearchJSON(w, loadSearch(sr))
	}
	return load.SearchText(w, loadSearch(sr))
}
