package server

import (
	"encoding/json"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
	"github.com/valyala/fasthttp"
)

// root answers GET / with a minimal OpenAPI 2.0 document listing the
// exposed tables and functions (PostgREST serves a full one there).
func (s *Server) root(ctx *fasthttp.RequestCtx, c *schema.Cache) *apierr.Error {
	paths := map[string]any{"/": map[string]any{}}
	sch := s.defaultSchema(c)
	tables := c.TableNames(sch)
	slices.Sort(tables)
	for _, t := range tables {
		paths["/"+t] = map[string]any{}
	}
	for _, f := range c.FunctionNames(sch) {
		paths["/rpc/"+f] = map[string]any{}
	}
	b, err := json.Marshal(map[string]any{
		"swagger": "2.0",
		"info":    map[string]any{"title": "postgrest-mini", "version": "0"},
		"paths":   paths,
	})
	if err != nil {
		return apierr.New(500, "PGRST000", err.Error())
	}
	ctx.SetStatusCode(200)
	ctx.SetContentType("application/openapi+json; charset=utf-8")
	ctx.SetBody(b)
	return nil
}
