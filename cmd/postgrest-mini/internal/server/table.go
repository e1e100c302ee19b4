package server

import (
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/sqlgen"
	"github.com/valyala/fasthttp"
)

// table answers GET, HEAD, POST, PATCH and DELETE on /name.
func (s *Server) table(ctx *fasthttp.RequestCtx, c *schema.Cache, method, name string, rq *request) *apierr.Error {
	t, ok := c.Table(s.defaultSchema(c), name)
	if !ok {
		return apierr.UnknownTable(s.defaultSchema(c), name)
	}
	req, err := query.Parse(params(ctx), nil)
	if err != nil {
		return apierr.As(err)
	}
	rq.ph.lap(phaseParse)
	var st sqlgen.Statement
	repr := prefers(ctx, "return=representation")
	req.ExactCount = prefersCount(ctx)
	switch method {
	case "GET", "HEAD":
		if s.opts.MaxRows > 0 {
			req.CapRows(int64(s.opts.MaxRows))
		}
		st, err = sqlgen.Read(c, t, req)
	case "POST":
		body, cols, aerr := insertBody(ctx.PostBody(), req.Columns, t)
		if aerr != nil {
			return aerr
		}
		st, err = sqlgen.Insert(c, t, cols, body, repr, req)
	case "PATCH":
		body, cols, aerr := patchBody(ctx.PostBody(), req.Columns, t)
		if aerr != nil {
			return aerr
		}
		st, err = sqlgen.Update(c, t, cols, body, repr, req)
	case "DELETE":
		st, err = sqlgen.Delete(c, t, repr, req)
	default:
		return apierr.UnsupportedMethod(method)
	}
	if err != nil {
		return apierr.As(err)
	}
	rq.ph.lap(phasePlan)
	rctx, cancel := reqContext()
	defer cancel()
	res, aerr := s.run(rctx, s.info(ctx, false, rq), st)
	if aerr != nil {
		return aerr
	}
	rq.ph.lap(phaseTransaction)
	defer rq.done()
	switch {
	case method == "GET" || method == "HEAD":
		ctx.Response.SkipBody = method == "HEAD"
		return writeRows(ctx, 200, res, rootOffset(req))
	case repr && method == "POST":
		return writeRows(ctx, 201, res, 0)
	case repr:
		return writeRows(ctx, 200, res, 0)
	case method == "POST":
		ctx.SetStatusCode(201)
		ctx.Response.Header.Set("Content-Range", "*/*")
	default:
		ctx.SetStatusCode(204)
		ctx.Response.Header.Set("Content-Range", "*/*")
	}
	return nil
}

// prefers reports whether a Prefer header holds the preference tok.
func prefers(ctx *fasthttp.RequestCtx, tok string) bool {
	found := false
	ctx.Request.Header.VisitAll(func(k, v []byte) {
		if string(k) == "Prefer" {
			found = found || containsToken(string(v), tok)
		}
	})
	return found
}

// prefersCount reads Prefer: count=exact; planned and estimated are
// answered with exact counts too.
func prefersCount(ctx *fasthttp.RequestCtx) bool {
	return prefers(ctx, "count=exact") || prefers(ctx, "count=planned") || prefers(ctx, "count=estimated")
}
