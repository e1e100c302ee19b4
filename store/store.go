package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/record"
	"github.com/pgrst-lab/pgrst-lab/lab/stats"
)

// EnvURI is the environment variable that names the store when no --store
// is given.
const EnvURI = "LAB_STORE"

// Store is an open results store.
type Store struct {
	pool *pgxpool.Pool
	uri  string // redacted, for errors
}

// Open connects to the store at uri (a PostgreSQL URI or key=value
// connection string) and migrates its schema (see the package
// documentation). A store migrated by a newer lab is refused with a
// *SchemaTooNewError.
func Open(ctx context.Context, uri string) (*Store, error) {
	red := connstr.Redact(uri)
	cfg, err := pgxpool.ParseConfig(uri)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", red, redactErr(err, uri))
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", red, redactErr(err, uri))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store %s: %w", red, redactErr(err, uri))
	}
	if _, err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store %s: %w", red, err)
	}
	return &Store{pool: pool, uri: red}, nil
}

// Close closes the store's connections.
func (s *Store) Close() { s.pool.Close() }

// ID is the store's id of a run: the hex SHA-256 of the experiment's
// name, the start time (UTC, RFC 3339 with nanoseconds) and the host
// (HostID, else the hostname), NUL-separated. It is the same for the same
// run however its record was encoded or wherever it was pushed from.
func ID(run *lab.Run) string {
	host := run.Host.HostID
	if host == "" {
		host = "hostname:" + run.Host.Hostname
	}
	h := sha256.New()
	for _, s := range []string{"pgrst-lab run", run.Experiment.Name, run.Started.UTC().Format(time.RFC3339Nano), host} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Put stores run, with ref saying where its report lives (its results
// directory or a URL; may be ""), in one transaction: the run, its
// variants, trials and their metrics, the summaries and its verdicts v
// (computed once by whoever ran or read the run: stats.Compare(run, 0),
// as `lab run` reports it). A run stored already (same ID) is left as it
// is: Put returns its id with inserted false.
func (s *Store) Put(ctx context.Context, run *lab.Run, v *stats.Verdicts, ref string) (id string, inserted bool, err error) {
	id = ID(run)
	if v == nil {
		return id, false, fmt.Errorf("store: run %s: no verdicts given (compute them once with stats.Compare(run, 0))", id)
	}
	rec, err := record.Marshal(run)
	if err != nil {
		return id, false, fmt.Errorf("store: run %s: %w", id, err)
	}
	sum := sha256.Sum256(rec)
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return id, false, fmt.Errorf("store %s: %w", s.uri, err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()

	h, t := run.Host, run.Target
	agentURL := ""
	if run.Agent != nil {
		agentURL = run.Agent.URL
	}
	tag, err := tx.Exec(ctx, `INSERT INTO `+Schema+`.runs (id, experiment, experiment_hash, title, started, finished,
    host_id, hostname, os, kernel, cpu_model, cpus, memory_bytes, postgresql, lab_version, go_version,
    target_binary, target_version, target_reference, supervisor, agent_url, interrupted, trial_count, ref, record_sha256, record)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)
ON CONFLICT (id) DO NOTHING`,
		id, run.Experiment.Name, run.ExperimentHash, run.Experiment.Title, run.Started, run.Finished,
		h.HostID, h.Hostname, h.OS, h.Kernel, h.CPUModel, h.CPUs, int64(h.MemoryBytes), h.PostgreSQL, h.LabVersion, h.GoVersion,
		t.Binary, t.Version, t.Reference, t.Supervisor, agentURL, run.Interrupted, len(run.Trials), ref, hex.EncodeToString(sum[:]), string(rec))
	if err != nil {
		return id, false, fmt.Errorf("store: put run %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return id, false, nil // stored already (perhaps by another runner a moment ago)
	}
	for _, c := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"variants", variantCols, variantRows(id, run)},
		{"trials", trialCols, trialRows(id, run)},
		{"trial_metrics", trialMetricCols, trialMetricRows(id, run)},
		{"summaries", summaryCols, summaryRows(id, run)},
		{"verdicts", verdictCols, verdictRows(id, v)},
	} {
		if len(c.rows) == 0 {
			continue
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{Schema, c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
			return id, false, fmt.Errorf("store: put run %s: %s: %w", id, c.table, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return id, false, fmt.Errorf("store: put run %s: %w", id, err)
	}
	return id, true, nil
}

// Query selects stored runs; an empty field matches any.
type Query struct {
	Experiment string
	HostID     string
}

// Stored is a run as the store holds it.
type Stored struct {
	ID  string
	Ref string
	Run *lab.Run
}

// Runs returns the stored runs q selects, oldest first (by start, then
// id), each decoded from its record through lab/record.
func (s *Store) Runs(ctx context.Context, q Query) ([]Stored, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, ref, record::text FROM `+Schema+`.runs
WHERE ($1 = '' OR experiment = $1) AND ($2 = '' OR host_id = $2)
ORDER BY started, id`, q.Experiment, q.HostID)
	if err != nil {
		return nil, fmt.Errorf("store %s: runs: %w", s.uri, err)
	}
	defer rows.Close()
	var out []Stored
	for rows.Next() {
		var st Stored
		var rec string
		if err := rows.Scan(&st.ID, &st.Ref, &rec); err != nil {
			return nil, fmt.Errorf("store %s: runs: %w", s.uri, err)
		}
		if st.Run, err = decode([]byte(rec)); err != nil {
			return nil, fmt.Errorf("store %s: run %s: %w", s.uri, st.ID, err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: runs: %w", s.uri, err)
	}
	return out, nil
}

// decode reads a stored record as record.Read reads run.json.
func decode(b []byte) (*lab.Run, error) {
	var r record.RunV1
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.Schema > lab.RecordSchema {
		return nil, fmt.Errorf("record schema %d is newer than this lab's %d: upgrade the lab", r.Schema, lab.RecordSchema)
	}
	return r.Run(), nil
}

// redactErr removes the password of uri from err's text: pgx's parse
// errors may quote the connection string.
func redactErr(err error, uri string) error {
	red := connstr.Redact(uri)
	if red == uri {
		return err
	}
	if msg := strings.ReplaceAll(err.Error(), uri, red); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}
