package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// Sent is the subset of ids that alerts of channel ("webhook", "issue")
// were sent about already.
func (s *Store) Sent(ctx context.Context, channel string, ids []string) (map[string]bool, error) {
	rows, err := s.pool.Query(ctx, `SELECT change_id FROM `+Schema+`.change_alerts WHERE channel = $1 AND change_id = ANY($2)`, channel, ids)
	if err != nil {
		return nil, fmt.Errorf("store %s: sent alerts: %w", s.uri, err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store %s: sent alerts: %w", s.uri, err)
	}
	out := map[string]bool{}
	for _, id := range got {
		out[id] = true
	}
	return out, nil
}

// MarkSent records that an alert of channel was sent about each change
// point of fs; one recorded already is left as it is.
func (s *Store) MarkSent(ctx context.Context, channel string, fs []history.Found) error {
	for _, f := range fs {
		c, k := f.Change, f.Change.Key
		if _, err := s.pool.Exec(ctx, `INSERT INTO `+Schema+`.change_alerts (change_id, channel, experiment, host_id, edition,
    scenario, variant, metric, before_ref, after_ref, change_pct, p)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
			c.ID, channel, k.Experiment, k.Host, k.Edition, k.Scenario, k.Variant, k.Metric, k.Before, k.After, nullable(c.Pct), nullable(c.P)); err != nil {
			return fmt.Errorf("store %s: record the %s alert of change point %s: %w", s.uri, channel, c.ID, err)
		}
	}
	return nil
}

// Acks are the acknowledged change points by id.
func (s *Store) Acks(ctx context.Context) (map[string]history.Ack, error) {
	rows, err := s.pool.Query(ctx, `SELECT change_id, note, acked_at FROM `+Schema+`.change_acks`)
	if err != nil {
		return nil, fmt.Errorf("store %s: acknowledgements: %w", s.uri, err)
	}
	defer rows.Close()
	out := map[string]history.Ack{}
	for rows.Next() {
		var id string
		var a history.Ack
		if err := rows.Scan(&id, &a.Note, &a.At); err != nil {
			return nil, fmt.Errorf("store %s: acknowledgements: %w", s.uri, err)
		}
		out[id] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: acknowledgements: %w", s.uri, err)
	}
	return out, nil
}

// Alerted is the key of a change point an alert was sent about, by its id
// (ok false when none was).
func (s *Store) Alerted(ctx context.Context, id string) (k history.Key, ok bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT experiment, host_id, edition, scenario, variant, metric, before_ref, after_ref
FROM `+Schema+`.change_alerts WHERE change_id = $1 LIMIT 1`, id).
		Scan(&k.Experiment, &k.Host, &k.Edition, &k.Scenario, &k.Variant, &k.Metric, &k.Before, &k.After)
	if errors.Is(err, pgx.ErrNoRows) {
		return k, false, nil
	}
	if err != nil {
		return k, false, fmt.Errorf("store %s: change point %s: %w", s.uri, id, err)
	}
	return k, true, nil
}

// Acknowledge records an acknowledgement of the change point k with a
// note; acknowledging it again replaces the note. It returns the
// acknowledgement's time.
func (s *Store) Acknowledge(ctx context.Context, k history.Key, note string) (time.Time, error) {
	var at time.Time
	err := s.pool.QueryRow(ctx, `INSERT INTO `+Schema+`.change_acks (change_id, note, experiment, host_id, edition,
    scenario, variant, metric, before_ref, after_ref)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (change_id) DO UPDATE SET note = excluded.note, acked_at = now()
RETURNING acked_at`, k.ID(), note, k.Experiment, k.Host, k.Edition, k.Scenario, k.Variant, k.Metric, k.Before, k.After).Scan(&at)
	if err != nil {
		return at, fmt.Errorf("store %s: acknowledge change point %s: %w", s.uri, k.ID(), err)
	}
	return at, nil
}

// HistoryRuns are the stored runs of an experiment ("" for every
// experiment), oldest first, of one machine (hostID; "" for every
// machine), as lab/history reads them.
func (s *Store) HistoryRuns(ctx context.Context, experiment, hostID string) ([]history.Run, error) {
	stored, err := s.Runs(ctx, Query{Experiment: experiment, HostID: hostID})
	if err != nil {
		return nil, err
	}
	runs := make([]history.Run, len(stored))
	for i, st := range stored {
		runs[i] = history.Run{ID: st.ID, Ref: st.Ref, Run: st.Run}
	}
	return runs, nil
}
