package reconcile

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Apply implements lab.Server: it computes what the variant wants from the
// original config (never from the previous variant), refuses a db-uri or
// db-anon-role with superuser or BYPASSRLS powers (checkRoles), plans the steps from
// what is applied, takes them (PostgREST config, PostgreSQL pinning and
// settings, the unit's drop-in, environment and command line), then
// reloads the target's config when the plan allows it (and v.Restart does
// not forbid it), else restarts it,
// and waits until the target is ready. Its error is cleaned of the secrets
// it knows (Secrets).
func (l *Server) Apply(ctx context.Context, v lab.Variant) (_ lab.Applied, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.learnVariant(v)
	defer l.redact(&err)
	in, err := l.wanted(v)
	if err != nil {
		return lab.Applied{}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	if err := l.checkRoles(ctx, in); err != nil {
		return lab.Applied{}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	rules := l.reloadRules()
	rules.reloads = rules.reloads && !v.Restart // [trials] fresh: a restart, never a reload
	e := &executor{l: l, p: planFor(l.cur, in.want, rules), in: in, cur: &l.cur}
	if err := e.run(ctx); err != nil {
		return lab.Applied{Changes: e.changes}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	changes := append(e.changes, in.unit...)
	ready, note, err := e.activate(ctx)
	if err != nil {
		return lab.Applied{Changes: changes}, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	return lab.Applied{Changes: append(changes, note...), ReadyAfter: ready}, nil
}

var _ lab.Server = (*Server)(nil)
