package reconcile

import (
	"github.com/pgrst-lab/pgrst-lab/configs"
	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// Secrets are the secret values this server side knows, to clean free
// text of them by exact match (capability.Secrets): the original config's,
// as written and as PostgREST reads it (configs.Load with the unit's
// environment), the unit's secret PGRST_* variables, the admin URI's
// password, and each variant's from its Apply on. Apply and Restore return
// errors redacted with them (a unit's log tail, a config line a conflict
// quotes); the agent cleans its replies and log with them too.
func (l *Server) Secrets() *capability.Secrets { return &l.secrets }

// learnOriginal learns the original config's secrets (New).
func (l *Server) learnOriginal() {
	if f, err := configs.Parse(l.cfg.Config, l.original); err == nil {
		for _, k := range f.Keys() {
			if v, ok := f.Get(k); ok {
				l.secrets.Add(k, v.String())
			}
		}
	}
	env := l.targetEnviron()
	if s, err := configs.Load(l.cfg.Config, env); err == nil {
		for k, v := range s {
			l.secrets.Add(k, v)
		}
	}
	if spec := l.cfg.TargetSpec; spec != nil {
		for k, v := range spec.Environment {
			l.secrets.AddEnv(k, v)
		}
	}
	if l.cfg.AdminURI != "" {
		l.secrets.AddURI(l.cfg.AdminURI)
	}
}

// learnVariant learns a variant's secrets (Apply).
func (l *Server) learnVariant(v lab.Variant) {
	for k, val := range v.PostgREST {
		l.secrets.Add(k, val)
	}
	for k, val := range v.Env {
		l.secrets.AddEnv(k, val)
	}
}

// redact is the deferred end of Apply and Restore: their error, cleaned
// of the known secrets.
func (l *Server) redact(err *error) { *err = l.secrets.Wrap(*err) }
