package server

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
	"github.com/valyala/fasthttp"
)

const jsonType = "application/json; charset=utf-8"

// handle is the API entry point: route, answer, log.
func (s *Server) handle(ctx *fasthttp.RequestCtx) {
	start := time.Now()
	s.inject.do()
	rq := request{ph: phases{last: start}}
	func() {
		defer func() {
			if r := recover(); r != nil { // never crash on a request
				s.logf(LogCrit, "panic serving %s: %v", ctx.RequestURI(), r)
				s.fail(ctx, apierr.New(500, "PGRST000", fmt.Sprint("internal error: ", r)))
			}
		}()
		if aerr := s.route(ctx, &rq); aerr != nil {
			s.fail(ctx, aerr)
		} else if s.opts.ServerTiming && rq.timed {
			rq.ph.header(ctx)
		}
	}()
	s.accessLog(ctx, start)
}

func (s *Server) route(ctx *fasthttp.RequestCtx, rq *request) *apierr.Error {
	c := s.cache.Load()
	if c == nil {
		return apierr.SchemaCacheNotReady()
	}
	var aerr *apierr.Error
	if rq.auth, aerr = s.authenticate(ctx); aerr != nil {
		return aerr
	}
	rq.ph.lap(phaseJWT)
	path := string(ctx.Path())
	method := string(ctx.Method())
	if path == "/" {
		if method != "GET" && method != "HEAD" {
			return apierr.UnsupportedMethod(method)
		}
		return s.root(ctx, c)
	}
	name := strings.TrimPrefix(path, "/")
	if fn, ok := strings.CutPrefix(name, "rpc/"); ok {
		if fn == "" || strings.Contains(fn, "/") {
			return apierr.InvalidPath()
		}
		return s.rpc(ctx, c, method, fn, rq)
	}
	if name == "" || strings.Contains(name, "/") {
		return apierr.InvalidPath()
	}
	return s.table(ctx, c, method, name, rq)
}

// protocolError answers requests fasthttp could not parse, as JSON errors:
// 413 for a body over MaxBodySize, 400 otherwise.
func (s *Server) protocolError(ctx *fasthttp.RequestCtx, err error) {
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		s.fail(ctx, apierr.InvalidBody(fmt.Sprintf("request body larger than %d bytes", s.opts.MaxBodySize)).WithStatus(413))
		return
	}
	s.fail(ctx, apierr.New(400, "PGRST000", "Malformed HTTP request").WithDetails(err.Error()))
}

// fail writes a PostgREST error body.
func (s *Server) fail(ctx *fasthttp.RequestCtx, e *apierr.Error) {
	ctx.Response.Reset()
	ctx.SetStatusCode(e.Status)
	ctx.SetContentType(jsonType)
	if e.Status == 401 && e.Code != "PGRST302" {
		ctx.Response.Header.Set("WWW-Authenticate", `Bearer error="invalid_token", error_description=`+strconv.Quote(e.Message))
	}
	ctx.SetBody(e.JSON())
}

// params returns the decoded query-string pairs.
func params(ctx *fasthttp.RequestCtx) []query.Param {
	var ps []query.Param
	ctx.QueryArgs().VisitAll(func(k, v []byte) {
		ps = append(ps, query.Param{Key: string(k), Value: string(v)})
	})
	return ps
}

// info gathers the request settings for the transaction.
func (s *Server) info(ctx *fasthttp.RequestCtx, rpc bool, rq *request) *reqInfo {
	m := string(ctx.Method())
	return &reqInfo{
		role:     rq.auth.role,
		claims:   rq.auth.claims,
		rollback: s.txRollback(ctx),
		method:   m,
		path:     string(ctx.Path()),
		headers:  headersJSON(ctx),
		cookies:  cookiesJSON(ctx),
		readOnly: m == "GET" || m == "HEAD",
		rpc:      rpc,
	}
}

// reqContext bounds a request's database work; fasthttp's ctx is not
// cancelled when a client goes away, so this is a plain deadline.
func reqContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Minute)
}

// writeRows answers with a JSON array body (or, for Accept:
// application/vnd.pgrst.object+json, its single object) and PostgREST's
// Content-Range.
func writeRows(ctx *fasthttp.RequestCtx, status int, res result, offset int64) *apierr.Error {
	ctype := jsonType
	if wantsObject(ctx) {
		obj, aerr := singular(res)
		if aerr != nil {
			return aerr
		}
		res.body = obj
		ctype = objectType + "; charset=utf-8"
	}
	total := "*"
	if res.total >= 0 {
		total = strconv.FormatInt(res.total, 10)
		if status == 200 && (offset > 0 || res.count < res.total) {
			status = 206 // Partial Content, as PostgREST with a known total
		}
	}
	ctx.SetStatusCode(status)
	ctx.SetContentType(ctype)
	if res.count > 0 {
		ctx.Response.Header.Set("Content-Range", strconv.FormatInt(offset, 10)+"-"+strconv.FormatInt(offset+res.count-1, 10)+"/"+total)
	} else {
		ctx.Response.Header.Set("Content-Range", "*/"+total)
	}
	ctx.SetBody(res.body)
	return nil
}

func rootOffset(req *query.Request) int64 {
	if n := req.Node(""); n != nil && n.Offset != nil {
		return *n.Offset
	}
	return 0
}

func (s *Server) defaultSchema(c *schema.Cache) string { return c.Schemas[0] }
