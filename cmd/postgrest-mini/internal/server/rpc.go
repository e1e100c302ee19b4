package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/sqlgen"
	"github.com/valyala/fasthttp"
)

// reserved query-string keys that are never function arguments.
var reserved = map[string]bool{"select": true, "order": true, "limit": true, "offset": true, "columns": true, "on_conflict": true}

// rpc answers GET and POST on /rpc/name. GET takes the arguments from the
// query string (keys naming a parameter; the others are filters), POST from
// a JSON object.
func (s *Server) rpc(ctx *fasthttp.RequestCtx, c *schema.Cache, method, name string, rq *request) *apierr.Error {
	sch := s.defaultSchema(c)
	overloads := c.Functions(sch, name)
	ps := params(ctx)
	var given map[string]any
	switch method {
	case "GET", "HEAD":
		given = map[string]any{}
		for _, p := range ps {
			if !reserved[p.Key] && !strings.Contains(p.Key, ".") {
				given[p.Key] = p.Value
			}
		}
	case "POST":
		var aerr *apierr.Error
		if given, aerr = bodyArgs(ctx.PostBody()); aerr != nil {
			return aerr
		}
	default:
		return apierr.UnsupportedMethod(method)
	}
	f := pickOverload(overloads, given, method == "POST")
	if f == nil {
		keys := make([]string, 0, len(given))
		for k := range given {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return apierr.UnknownFunction(sch, name, keys)
	}
	isArg := func(k string) bool { return hasParam(f, k) }
	if method == "POST" {
		isArg = nil
	}
	req, err := query.Parse(ps, isArg)
	if err != nil {
		return apierr.As(err)
	}
	req.ExactCount = prefersCount(ctx)
	rq.ph.lap(phaseParse)
	var args []sqlgen.Arg
	for _, p := range f.Params {
		if v, ok := given[p.Name]; ok {
			args = append(args, sqlgen.Arg{Name: p.Name, Value: v})
		}
	}
	st, err := sqlgen.Call(c, f, args, req)
	if err != nil {
		return apierr.As(err)
	}
	rq.ph.lap(phasePlan)
	rctx, cancel := reqContext()
	defer cancel()
	ri := s.info(ctx, true, rq)
	res, aerr := s.run(rctx, ri, st)
	if aerr != nil {
		return aerr
	}
	rq.ph.lap(phaseTransaction)
	defer rq.done()
	if f.RetSet {
		return writeRows(ctx, 200, res, rootOffset(req))
	}
	ctx.SetStatusCode(200)
	ctx.SetContentType(jsonType)
	ctx.SetBody(res.body)
	return nil
}

func hasParam(f *schema.Function, name string) bool {
	for _, p := range f.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// pickOverload chooses the overload whose required parameters are all
// given and which takes the most of the given keys. With exact (POST), every
// given key must be a parameter.
func pickOverload(fs []*schema.Function, given map[string]any, exact bool) *schema.Function {
	var best *schema.Function
	bestN := -1
	for _, f := range fs {
		ok, n := true, 0
		for _, p := range f.Params {
			_, has := given[p.Name]
			if has {
				n++
			} else if !p.HasDefault {
				ok = false
			}
		}
		if !ok || (exact && n != len(given)) {
			continue
		}
		if n > bestN {
			best, bestN = f, n
		}
	}
	return best
}

// bodyArgs reads a JSON object of arguments. Strings are passed unquoted,
// null as SQL NULL, other values as their JSON text.
func bodyArgs(raw []byte) (map[string]any, *apierr.Error) {
	if !utf8.Valid(raw) {
		return nil, apierr.InvalidBody("the body is not valid UTF-8")
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, apierr.InvalidBody(err.Error())
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch {
		case string(v) == "null":
			out[k] = nil
		case len(v) > 0 && v[0] == '"':
			var str string
			if err := json.Unmarshal(v, &str); err != nil {
				return nil, apierr.InvalidBody(err.Error())
			}
			out[k] = str
		default:
			out[k] = string(v)
		}
	}
	return out, nil
}
