package server

import "github.com/valyala/fasthttp"

// request is the per-request state the handlers share: who it runs as and
// the time spent in each phase.
type request struct {
	auth  auth
	ph    phases
	timed bool // the request got through its transaction: Server-Timing is written
}

// done ends the response phase.
func (rq *request) done() {
	rq.ph.lap(phaseResponse)
	rq.timed = true
}

// db-tx-end values.
const (
	TxCommit                = "commit"
	TxCommitAllowOverride   = "commit-allow-override"
	TxRollback              = "rollback"
	TxRollbackAllowOverride = "rollback-allow-override"
)

// txRollback decides how the request's transaction ends, as PostgREST 13:
// db-tx-end gives the default; with an -allow-override value a
// "Prefer: tx=commit|rollback" overrides it and is echoed in
// Preference-Applied. Without the override the preference is ignored.
func (s *Server) txRollback(ctx *fasthttp.RequestCtx) bool {
	end := s.opts.TxEnd
	rollback := end == TxRollback || end == TxRollbackAllowOverride
	if end != TxCommitAllowOverride && end != TxRollbackAllowOverride {
		return rollback
	}
	switch {
	case prefers(ctx, "tx=rollback"):
		ctx.Response.Header.Add("Preference-Applied", "tx=rollback")
		return true
	case prefers(ctx, "tx=commit"):
		ctx.Response.Header.Add("Preference-Applied", "tx=commit")
		return false
	}
	return rollback
}
