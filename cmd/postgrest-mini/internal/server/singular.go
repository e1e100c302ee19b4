package server

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/valyala/fasthttp"
)

const objectType = "application/vnd.pgrst.object+json"

// wantsObject reports Accept: application/vnd.pgrst.object+json, the
// singular response (a single JSON object instead of an array).
func wantsObject(ctx *fasthttp.RequestCtx) bool {
	return strings.Contains(string(ctx.Request.Header.Peek("Accept")), "application/vnd.pgrst.object")
}

// singular turns a one-element JSON array into its element; any other row
// count is 406 PGRST116, as in PostgREST.
func singular(res result) ([]byte, *apierr.Error) {
	if res.count != 1 {
		return nil, apierr.New(406, "PGRST116", "JSON object requested, multiple (or no) rows returned").
			WithDetails(fmt.Sprintf("The result contains %d rows", res.count))
	}
	b := bytes.TrimSpace(res.body)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, apierr.New(500, "PGRST000", "unexpected body for a singular response")
	}
	return bytes.TrimSpace(b[1 : len(b)-1]), nil
}
