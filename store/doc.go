// Package store is the shared results store: run records kept in a
// PostgreSQL database that CI runners and machines write to, as an
// alternative to (never a replacement for) the results directory. It is an
// adapter over pgx: package lab and its subpackages know nothing of it, and
// cmd/lab wires it (`lab run --store URI`, `lab push`).
//
// # Use
//
//	st, err := store.Open(ctx, "postgres://lab@results.example/lab")
//	...
//	defer st.Close()
//	id, inserted, err := st.Put(ctx, run, stats.Compare(run, 0), "https://ci.example/artifacts/123")
//	runs, err := st.Runs(ctx, store.Query{Experiment: "baseline"})
//
// Open connects and migrates. RefuseMeasured says whether a store URI is on
// the PostgreSQL cluster a run measures: `lab run` refuses such a store
// before the first trial, since the store's writes (and a runner pushing
// to it) would disturb the server being measured. It compares the
// clusters' system identifiers (pg_control_system()), so a different
// database, role, port spelling or a Unix socket instead of TCP on the same
// server is still the same cluster and still refused.
//
// # Run identity
//
// A run's id (ID) is the hex SHA-256 of its experiment's name, its start
// time (UTC, nanoseconds) and its host (HostID, else the hostname). It
// does not depend on run.json's bytes: the same result directory pushed
// from two machines, by two versions of the lab, or put by `lab run
// --store` and then pushed again, is one run. Put of a run whose id is
// stored already changes nothing and reports inserted = false.
//
// # Migrations
//
// The schema is created and migrated by Open, from the numbered SQL files
// in migrations/ (embedded in the binary), each in one transaction with
// the others, under a transaction-level advisory lock: two runners opening
// a new store at once migrate it once. Applied versions are recorded in
// pgrst_lab.lab_schema_migrations. A store whose schema is newer than
// this lab knows (a newer lab migrated it) is refused with a
// *SchemaTooNewError rather than written to. The role needs CREATE on the
// database for the first Open (to create schema pgrst_lab); later Opens
// need only USAGE on it and SELECT, INSERT on its tables.
//
// # Schema
//
// Every table is in the PostgreSQL schema pgrst_lab. Times are
// timestamptz (microseconds; run.json keeps nanoseconds). Floating-point
// columns that may be unknown or unbounded are NULL then (never NaN or
// ±Infinity).
//
// pgrst_lab.lab_schema_migrations: the migrations applied.
//
//	version     integer      the migration's number (0001_init.sql is 1)
//	name        text         its file name
//	applied_at  timestamptz  when it was applied
//
// pgrst_lab.runs: one row per run (one run.json).
//
//	id                text         ID(run), the primary key
//	experiment        text         the experiment's name
//	experiment_hash   text         the experiment's content hash (lab.Run.ExperimentHash; '' for older records)
//	title             text         the experiment's title
//	started, finished timestamptz  the run's start and end
//	host_id           text         the server machine's id (DMI product UUID or machine-id)
//	hostname, os, kernel, cpu_model text; cpus integer; memory_bytes bigint: the server machine
//	postgresql        text         the measured PostgreSQL's version
//	lab_version, go_version text   the lab that ran it
//	target_binary, target_version text; target_reference boolean (postgrest-mini); supervisor text
//	agent_url         text         the `lab agent` that served the run ('' when local)
//	interrupted       text         why the run stopped early ('' when it did not)
//	trial_count       integer      the number of trials
//	ref               text         where the run's report lives: its results directory or a URL (--ref)
//	record_sha256     text         SHA-256 of run.json (record.Marshal) as first stored
//	record            jsonb        the whole run.json; Runs decodes it through lab/record
//	stored_at         timestamptz  when the row was written
//
// pgrst_lab.variants: one row per variant of a run.
//
//	run_id, name      text         the key
//	ord               integer      the variant's order in the run, from 1
//	baseline          boolean      the baseline the verdicts compare with
//	description       text
//	binary_path       text         the executable the variant ran instead of the target's ('' for the target's)
//	version           text         that executable's --version
//	postgrest_version, commit, repo, ref text  the build the variant ran (lab.VariantInfo.Build; '' when unknown)
//	changes           jsonb        the settings it changed, as applied: [{"where","key","from","to"}]
//
// pgrst_lab.trials: one row per trial, with the raw figures most queries need.
//
//	run_id text, seq integer      the key (seq: order in the run, from 1)
//	variant, scenario text; rep integer (repetition, from 1)
//	started, ended    timestamptz  the trial's measured window
//	error             text         set for a failed trial; such trials are left out of summaries and verdicts
//	model             text         the load model
//	requests, errors, dropped bigint; seconds double precision
//	rate              double precision  throughput, req/s
//	p50_ms, p99_ms    double precision  latency percentiles, ms
//	server_cpu_us, db_cpu_us double precision  server and database CPU per request, µs
//	speed_ref_ns      double precision  the machine's speed reference (0: not measured)
//
// pgrst_lab.trial_metrics: every metric of lab.Metrics known for a trial
// (the metrics verdicts compare, including Server-Timing phases and GHC
// statistics), one row per (trial, metric).
//
//	run_id text, seq integer, metric text  the key (metric: lab.Metric.Name, e.g. rate, p99, cpu)
//	value             double precision  in the metric's unit (lab.Metric.Unit)
//
// pgrst_lab.summaries: per run, variant, scenario and metric, the median of
// the valid trials with its 95 % confidence interval (stats.Summarize, as
// the reports compute it).
//
//	run_id, variant, scenario, metric text  the key
//	unit              text
//	n                 integer      valid trials with the metric
//	median            double precision
//	ci_low, ci_high   double precision  NULL when too few trials for an interval
//
// pgrst_lab.verdicts: per run, variant, scenario and metric, the comparison
// with the baseline (stats.Compare(run, 0), as `lab run` reports it).
//
//	run_id, variant, scenario, metric text  the key
//	baseline          text         the baseline variant
//	primary_metric    boolean      the headline metric of the run
//	change_pct        double precision  the estimated change, % (NULL when unknown or infinite)
//	ci_low_pct, ci_high_pct double precision  its confidence interval (NULL when unbounded)
//	p, p_unpaired     double precision  the verdict test's p-value, and Mann-Whitney's
//	test              text         "paired signed-rank" or "Mann-Whitney U" (stats.TestSignedRank, TestMannWhitney)
//	alpha, threshold  double precision  the run's alpha and this look's p-value threshold
//	mde_pct           double precision  minimum detectable effect, ± % (NULL when unknown)
//	significant       boolean
//	decision          text         ~, better, worse or changed (stats.Outcome)
//	baseline_n, variant_n integer  valid trials on each side
//	warnings          text[]
//
// pgrst_lab.change_alerts: the alerts `lab track` sent about a change point
// (one row per change point and channel: sent once), migration 0002.
//
//	change_id, channel text        the key: history.Key.ID (series + commit pair); webhook or issue
//	sent_at           timestamptz
//	experiment, host_id, edition, scenario, variant, metric text  the change point's series
//	before_ref, after_ref text     the commits (or run:ID) either side of it
//	change_pct, p     double precision  its size and p-value when sent
//
// pgrst_lab.change_acks: acknowledged change points (`lab history ack`):
// never alerted, marked in `lab history`.
//
//	change_id         text         the key
//	note              text         why it is known
//	acked_at          timestamptz
//	experiment .. after_ref text   the change point, as in change_alerts
package store
