-- 0001: the first schema of the results store. Every table is in schema
-- pgrst_lab; the lab creates it (CREATE SCHEMA IF NOT EXISTS) before the
-- first migration. See the package documentation of store for what each
-- column holds.

CREATE TABLE pgrst_lab.runs (
    id              text PRIMARY KEY,          -- store.ID(run): sha256 of (experiment, started, host)
    experiment      text NOT NULL,
    experiment_hash text NOT NULL DEFAULT '',  -- lab.Run.ExperimentHash ('' for older records)
    title           text NOT NULL DEFAULT '',
    started         timestamptz NOT NULL,
    finished        timestamptz NOT NULL,
    host_id         text NOT NULL DEFAULT '',
    hostname        text NOT NULL DEFAULT '',
    os              text NOT NULL DEFAULT '',
    kernel          text NOT NULL DEFAULT '',
    cpu_model       text NOT NULL DEFAULT '',
    cpus            integer NOT NULL DEFAULT 0,
    memory_bytes    bigint NOT NULL DEFAULT 0,
    postgresql      text NOT NULL DEFAULT '',
    lab_version     text NOT NULL DEFAULT '',
    go_version      text NOT NULL DEFAULT '',
    target_binary   text NOT NULL DEFAULT '',
    target_version  text NOT NULL DEFAULT '',
    target_reference boolean NOT NULL DEFAULT false,
    supervisor      text NOT NULL DEFAULT '',
    agent_url       text NOT NULL DEFAULT '',
    interrupted     text NOT NULL DEFAULT '',
    trial_count     integer NOT NULL DEFAULT 0,
    ref             text NOT NULL DEFAULT '',  -- where the run's report lives (a results dir or a URL)
    record_sha256   text NOT NULL,             -- sha256 of run.json as first stored (record.Marshal)
    record          jsonb NOT NULL,            -- the whole run.json
    stored_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX runs_experiment_started ON pgrst_lab.runs (experiment, started);
CREATE INDEX runs_host_started ON pgrst_lab.runs (host_id, started);

CREATE TABLE pgrst_lab.variants (
    run_id            text NOT NULL REFERENCES pgrst_lab.runs (id) ON DELETE CASCADE,
    ord               integer NOT NULL,        -- order in the run, from 1
    name              text NOT NULL,
    baseline          boolean NOT NULL DEFAULT false,
    description       text NOT NULL DEFAULT '',
    binary_path       text NOT NULL DEFAULT '',
    version           text NOT NULL DEFAULT '',
    postgrest_version text NOT NULL DEFAULT '',
    commit            text NOT NULL DEFAULT '',
    repo              text NOT NULL DEFAULT '',
    ref               text NOT NULL DEFAULT '',
    changes           jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (run_id, name)
);

CREATE TABLE pgrst_lab.trials (
    run_id         text NOT NULL REFERENCES pgrst_lab.runs (id) ON DELETE CASCADE,
    seq            integer NOT NULL,
    variant        text NOT NULL,
    scenario       text NOT NULL,
    rep            integer NOT NULL,
    started        timestamptz NOT NULL,
    ended          timestamptz NOT NULL,
    error          text NOT NULL DEFAULT '',   -- set for a failed trial (left out of verdicts)
    model          text NOT NULL DEFAULT '',
    requests       bigint NOT NULL DEFAULT 0,
    errors         bigint NOT NULL DEFAULT 0,
    dropped        bigint NOT NULL DEFAULT 0,
    seconds        double precision NOT NULL DEFAULT 0,
    rate           double precision NOT NULL DEFAULT 0,
    p50_ms         double precision NOT NULL DEFAULT 0,
    p99_ms         double precision NOT NULL DEFAULT 0,
    server_cpu_us  double precision NOT NULL DEFAULT 0,  -- server CPU per request, µs
    db_cpu_us      double precision NOT NULL DEFAULT 0,  -- database CPU per request, µs
    speed_ref_ns   double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE pgrst_lab.trial_metrics (
    run_id  text NOT NULL,
    seq     integer NOT NULL,
    metric  text NOT NULL,                    -- lab.Metrics' name
    value   double precision NOT NULL,
    PRIMARY KEY (run_id, seq, metric),
    FOREIGN KEY (run_id, seq) REFERENCES pgrst_lab.trials (run_id, seq) ON DELETE CASCADE
);

CREATE TABLE pgrst_lab.summaries (
    run_id    text NOT NULL REFERENCES pgrst_lab.runs (id) ON DELETE CASCADE,
    variant   text NOT NULL,
    scenario  text NOT NULL,
    metric    text NOT NULL,
    unit      text NOT NULL DEFAULT '',
    n         integer NOT NULL,
    median    double precision NOT NULL,
    ci_low    double precision,               -- NULL: too few trials for an interval
    ci_high   double precision,
    PRIMARY KEY (run_id, variant, scenario, metric)
);

CREATE TABLE pgrst_lab.verdicts (
    run_id        text NOT NULL REFERENCES pgrst_lab.runs (id) ON DELETE CASCADE,
    variant       text NOT NULL,
    baseline      text NOT NULL,
    scenario      text NOT NULL,
    metric        text NOT NULL,
    primary_metric boolean NOT NULL DEFAULT false,
    change_pct    double precision,           -- NULL: unknown (NaN) or infinite (baseline 0)
    ci_low_pct    double precision,           -- NULL: no bounded interval
    ci_high_pct   double precision,
    p             double precision NOT NULL,
    p_unpaired    double precision NOT NULL,
    test          text NOT NULL,
    alpha         double precision NOT NULL,
    threshold     double precision NOT NULL,
    mde_pct       double precision,           -- NULL: unknown (fewer than two trials)
    significant   boolean NOT NULL,
    decision      text NOT NULL,              -- ~, better, worse, changed
    baseline_n    integer NOT NULL,
    variant_n     integer NOT NULL,
    warnings      text[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_id, variant, scenario, metric)
);
