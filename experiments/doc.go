// Package experiments reads experiment files: TOML documents describing
// what the lab varies (variants), what it sends (scenarios), how (load
// model, warm-up, duration) and how often (trials). It also bundles the
// experiments that reproduce the findings of the 2020 PostgREST benchmark
// thread; `lab run socket-vs-tcp` runs one by name.
//
// Decoding is strict and reports every problem at once, each with its file
// and line, in line order:
//
//	experiments/x.toml:12: variant[1].postgrest: unknown key "db-pol" (did you mean "db-pool"?)
//	experiments/x.toml:20: load.duration: must be a duration string like "10s" or "500ms", not integer 10
//	experiments/x.toml:25: trials.min: 1: need at least 2 trials per variant and scenario for a verdict
//
// Syntax errors come from github.com/BurntSushi/toml (the parser stops at
// the first); unknown keys and wrong types from a check of the decoded
// document against lab.Experiment's toml tags; impossible values from
// lab.Experiment.Validate; PostgREST keys and values from a KeyValidator
// the caller passes (the command line passes configs.ValidateSetting: this
// package imports no adapter). Lines come from a small index of the
// source (path with array indices -> line), since the TOML library keeps
// key positions private and without array indices.
//
// # File format
//
//	name = "socket-vs-tcp"          # required; letters, digits, . _ -
//	title = "db-uri: Unix socket vs TCP"
//	description = "..."
//	scenarios = ["GETSingle", "ArtistsByName"]  # built-in names and/or [[scenario]] names
//	allow_unknown_keys = false      # let variants set PostgREST keys the catalogue lacks
//	targets = "load/targets.http"   # a targets file (vegeta's format), relative to this file and
//	                                #   inside its directory: its requests, round-robin, are the
//	                                #   scenario "targets"
//	jwt_secret = "a secret of at least 32 characters"  # signs {jwt ...} templates (HS256); never reported
//	jwt_private_key = "keys/rs256.pem"  # PEM RSA private key of {jwt alg=RS256} templates, inside this file's directory
//	profile = false                 # per trial, over the measured window: a CPU profile (perf record
//	                                #   -e cpu-clock -g) of the target and PostgreSQL, GHC runtime
//	                                #   statistics (+RTS -S; Haskell targets) and the SQL statements
//	                                #   sent (pg_stat_statements); same as `lab run --profile`.
//	                                #   Needs perf on PATH and the local server side (not --agent)
//	timeline = false                # the report draws the first trial of each variant and scenario
//	                                #   on one time axis (per second: answers, errors, latency, RSS;
//	                                #   events); on by itself with [[action]]s
//
//	[[action]]                      # done at a set time of every trial's measured part, under load
//	at = "5s"                       #   from the start of the measured part (< load.duration)
//	do = "sql"                      #   notify (NOTIFY pgrst, 'reload schema') | restart (the
//	                                #   target, to ready) | sql (as superuser, in a transaction)
//	sql = "LOCK TABLE artist"       #   do = "sql" only; committed after hold
//	hold = "2s"                     #   local server side only (not --agent); open or closed model
//
//	[target]                        # leave out for the local stack (lab stack up)
//	stack = ""                      # state dir of a local stack
//	unit = "postgrest.service"      # or an existing server: its unit,
//	config = "/etc/postgrest.conf"  #   its config file (required with unit),
//	url = "http://127.0.0.1:3000"   #   its API URL,
//	admin_url = "http://127.0.0.1:3001"
//	pg_unit = "postgresql.service"  #   its PostgreSQL unit,
//	pg_uri = "postgres://postgres@/postgres"  # and a superuser URI
//
//	[load]
//	model = "closed"                # closed (default) | open | search | efficiency
//	connections = 10                # closed: connections (default 10)
//	think = "0s"                    # closed: pause between a response and the next request
//	rate = 1000.0                   # open: requests/s (required)
//	max_in_flight = 0               # open: bound on concurrent requests (0 = 50 ms of requests, 100..2000)
//	duration = "10s"                # measured part of a trial (default 10s)
//	warmup = "2s"                   # unmeasured start of a trial (default 2s; 0 allowed)
//	timeout = "10s"                 # per request (default 10s)
//	threads = 0                     # load generator threads (0 = automatic)
//	utilisation = 0.65              # efficiency: share of the baseline's capacity, in (0, 1); default 0.65
//	[load.limit]                    # search: highest rate meeting these
//	p99 = "50ms"                    #   needs p99 or max_errors
//	max_errors = 0.001              #   fractions 0..1; 0 = no failures
//	max_dropped = 0.01
//	min_rate = 100.0
//	max_rate = 5000.0               #   0 = no upper bound
//
//	[trials]
//	min = 5                         # trials per variant and scenario before a verdict (>= 2; default 5)
//	max = 10                        # stop here even if undecided (>= min; default 10)
//	order = "interleaved"           # interleaved (default) | random (seeded)
//	seed = 1
//	alpha = 0.05                    # significance level, in (0, 0.5]
//	analysis = "paired"             # paired | unpaired; unset: paired (signed-rank on per-round
//	                                #   ratios) when every round measured every variant
//	sequential = true               # default true: the stop after each round from min spends alpha
//	                                #   over the looks (group-sequential); false: each look at alpha
//	interference = 0.2              # share of the machine's CPUs other work may use in a trial (default
//	                                #   0.2; 1 = no check); a round above it is measured again
//
//	[[variant]]                     # one or more; at most one baseline (else the first)
//	name = "unix"                   # required, unique
//	description = "..."
//	baseline = false
//	binary = "$(PGRST_BRANCH)"      # another PostgREST executable (absolute path or $(VAR))
//	args = ["+RTS", "-N2", "-RTS"]  # extra arguments
//	[variant.postgrest]             # PostgREST config keys; strings, numbers, booleans
//	db-uri = "unix"                 #   "tcp" | "unix" (derived by the lab) | a URI
//	db-pool = 10
//	[variant.postgresql]            # PostgreSQL settings (ALTER SYSTEM)
//	synchronous_commit = "off"
//	[variant.env]                   # environment of the PostgREST unit
//	GHCRTS = "-qn1"
//	[variant.dropin]                # unit drop-in: CPUAffinity, CPUQuota, Environment,
//	CPUAffinity = "1"               #   LimitNOFILE, MemoryHigh, MemoryMax, Nice, TasksMax
//
//	[[scenario]]                    # custom scenarios, listed in scenarios by name
//	name = "ArtistsByName"
//	method = "GET"                  # default GET
//	path = "/artist?name=like.A*&id=eq.{rand 1 275}"
//	header = { Prefer = "count=exact", Authorization = "Bearer {jwt role=web_anon exp=+1h}" }
//	body = ""                       # or body_file = "path.json" (not both; relative to this file,
//	                                #   inside its directory)
//	expect = 200                    # 0 = any 2xx, -1 = any below 500
//	weight = 1.0                    # default 1
//
// # Sweeps
//
// Instead of [[variant]] tables, a [sweep] generates the variants: one key
// at a list or a range of values, optionally crossed with a second key (a
// grid), each variant named key=value (db-pool=5; db-pool=5+work_mem=4MB):
//
//	[sweep]
//	key = "postgrest.db-pool"       # postgrest.<key> | postgresql.<setting> | env.<NAME>
//	                                #   | dropin.<Setting> | rts (+RTS options; "" = none)
//	values = [1, 2, 5, 10, 20, 50]  # strings, numbers, booleans; or a range:
//	# from = 1, to = 64             #   from..to (inclusive) by step (arithmetic)
//	# factor = 2, unit = "MB"       #   or factor > 1 (geometric: a log axis); unit appended
//	baseline = 10                   # required, one of the values
//	cheapest = "ascending"          # ascending (numbers' default) | descending | listed (text's default)
//	[sweep.cross]                   # optional second key: key, values or range, baseline
//	key = "postgresql.work_mem"
//	values = ["4MB", "16MB"]
//	baseline = "4MB"
//
// At most one [[variant]], without name and baseline, may accompany a
// sweep: what every value shares (rts.toml's log-level). Each value is
// checked like a variant's value, and a problem is reported at the value's
// line (sweep.values[1]: postgrest.db-pool (db-pool=many): "many" is not
// an integer); a problem of the shared settings at the [[variant]]. At most
// lab.MaxSweepValues variants. The report draws each metric against the
// value and recommends the cheapest value statistically indistinguishable
// from the best (package lab/stats, Sweep and Recommend).
//
// # Design: efficiency mode, paired and sequential verdicts
//
// model = "efficiency" first searches the baseline's capacity on each
// scenario (a short open-model search, 3 s steps, within [load.limit];
// default max_errors 0.001, max_dropped 0.01), then measures every trial
// with the open model at utilisation × capacity. The verdict's primary
// metric is then server + database CPU per request ("cpu"), which below
// saturation is steadier than throughput at saturation on shared cores.
//
// [trials] analysis and sequential choose how verdicts are tested (see
// package lab/stats): unset, rounds are analysed as pairs (signed-rank on
// the per-round ratio variant/baseline) when every round measured every
// variant, and the stop after each round from min spends alpha over the
// looks up to max (group-sequential), so stopping early keeps the
// false-positive rate at alpha. `lab plan NAME --effect 3%` says how many
// rounds an effect needs; `lab calibrate NAME` measures it.
//
// A [partition] table keeps the load generator, PostgREST and PostgreSQL
// off each other's cores (CPU lists as systemd's CPUAffinity takes them):
//
//	[partition]
//	generator = "0"                 # the load generator's threads
//	postgrest = "1"                 # CPUAffinity of every variant (then no variant may set it)
//	postgresql = "1"                # CPUAffinity of PostgreSQL's unit for the whole run
//
// PostgREST and the generator must not share CPUs; PostgreSQL may share
// with either (on two cores one of the three shares). PostgreSQL is pinned with a lab drop-in on its unit and one
// restart at the run's first variant; the drop-in goes when the run
// restores (after a kill, at the next start). An agent pins it only when
// its allowed drop-in settings include CPUAffinity. `lab calibrate` with
// and without the table shows whether partitioning helps on a given core
// count.
//
// # Requests: templates, JWTs, targets files
//
// Paths and bodies may hold {rand LO HI} and {seq START}; header values
// also {jwt CLAIM=VALUE...}, an HS256 token signed with jwt_secret: exp,
// iat and nbf take "+1h" (from the trial's start) or a Unix time, other
// claims are strings; "pool=N" sends N tokens in turn (differing in jti:
// a JWT cache's best case), "unique" a new token per request (its worst
// case); "alg=RS256" signs with the PEM key jwt_private_key names and
// "kid=ID" puts a key id in the header. Variants give PostgREST the same
// secret, or the public key as a JWK or JWKS, with jwt-secret (shown as
// <redacted> in reports and run.json).
//
// targets names a file in vegeta's HTTP targets format, the one
// PostgREST's test/load/targets.http uses: "METHOD URL" lines, "Name:
// value" headers, an optional "@file" body (relative to the targets file
// and inside its directory), blank lines between targets, # comments. The
// URL's host must be loopback or a bare name ("postgrest"); only its path
// and query are used: the requests go to the experiment's target. Every
// answer below 500 counts as success (such mixes request missing tables on
// purpose). `lab run NAME --targets FILE` replays a file instead of the
// experiment's scenarios. Writes under "Prefer: tx=rollback" change
// nothing when the variant sets db-tx-end = "commit-allow-override" (or
// rollback-allow-override), as PostgREST's postgrest-loadtest does;
// without it PostgREST ignores the preference and commits.
//
// With server-timing-enabled = true in a variant, the generator reads each
// answer's Server-Timing header and the report breaks the server's time
// down by phase (jwt, parse, plan, transaction, response): metrics st_jwt
// ... st_response and st_total, a stacked bar chart and a table per
// scenario. PostgREST before v16.0 reports CPU time of its process there,
// not wall time (PostgREST#4522).
//
// # Files an experiment reads, and bounds
//
// An experiment file may be hostile (downloaded, shared), so what it makes
// the lab read is confined and bounded. targets and every body_file are
// paths relative to the experiment file, inside its directory: an absolute
// path, a path with "..", or a symbolic link leading out (both sides
// resolved with filepath.EvalSymlinks) is refused at the key's line
// (x.toml:4: targets: "../secret.txt" must be a path relative to the
// experiment file and inside the experiment file's directory (/dir)). They
// must be regular files (a FIFO, /dev/zero or a directory is refused
// without blocking: opened with O_NONBLOCK and checked with fstat) of at
// most MaxTargetsFileSize (1 MiB) for a targets file and MaxBodyFileSize
// (16 MiB) for a body_file; a targets file's @bodies stay inside its own
// directory, 16 MiB each and 64 MiB together, at most 10000 targets. The
// experiment file itself is read the same way, at most MaxFileSize (1
// MiB). The run opens the checked, resolved paths again without following
// a symbolic link at any component, so a file swapped for a link between
// the check and the read is refused (not a file outside the directory
// read). An error about a targets file or a body file gives its path, line
// and what was expected, never the file's text. `lab run --targets FILE`
// names a file on the command line: it is bounded the same way but may be
// anywhere.
//
// Templates are bounded where they are checked: {rand LO HI} needs LO <=
// HI and HI-LO+1 to fit an int64; {seq START} |START| <= 2^62; the
// {jwt pool=N} fields of a run (or a targets file) hold at most 200000
// tokens together. Numbers are bounded too (lab.MaxRate and the other
// lab.Max... constants): rate and the limit's rates finite in [0, 1e7]
// requests/s, connections and max_in_flight at most 100000, threads 1024,
// duration + warmup 24h, timeout, think and limit.p99 1h, trials.min and
// trials.max 10000, a scenario's weight 1e6; NaN and Inf are refused
// everywhere. A panic (a bug) while running never reaches the terminal as
// a Go trace: the run stops with an internal error, the server's config is
// restored as on any error, and `lab` writes the stack to a
// lab-internal-error-*.txt file in the temporary directory.
//
// Durations are strings with a unit ("10s", "500ms"); a bare number is an
// error (BurntSushi/toml would read it as nanoseconds). Values left out get
// lab.Experiment.Defaults; a value written, even 0, is kept and validated.
//
// # Bundled experiments
//
// socket-vs-tcp, log-level, pool-size (a db-pool sweep), prepared-statements,
// pg-synchronous-commit, pg-settings (a work_mem sweep), rts (a sweep of
// GHC runtime options), binaries, jwt-cache (JWT cache off vs on, best and
// worst case: PostgREST 14+'s key; jwt-cache-v13 for 12.0-13.x) and aa;
// each file's comments give the
// question, the original finding with its numbers, and how to read the
// result. Names lists them; Source returns a file to copy and edit.
//
// # Use
//
//	e, err := experiments.LoadWith("socket-vs-tcp", keys) // or a path; err is Errors
//	err = experiments.Expand(e, os.LookupEnv) // before running: resolve $(VAR) in binary and args
//
// where keys is a KeyValidator; cmd/lab's adapts configs.ValidateSetting,
// turning its unknown-key errors into *UnknownKey.
package experiments
