package sqlgen

import (
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/query"
	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/schema"
)

// Statement is SQL with its bind parameters (all strings or nil, sent with
// unknown type so PostgreSQL infers them as it does for PostgREST).
type Statement struct {
	SQL  string
	Args []any
}

type builder struct {
	c       *schema.Cache
	req     *query.Request
	args    []any
	aliasN  int
	pending []string        // EXISTS conditions of !inner embeds for the node being rendered
	visited map[string]bool // embed paths rendered, to reject options on others
}

// checkPaths rejects filters, order or limit on paths that were not
// rendered (PGRST108), as PostgREST does.
func (b *builder) checkPaths() error {
	for path := range b.req.Nodes {
		if path != "" && !b.visited[path] {
			return apierr.NotEmbedded(path)
		}
	}
	return nil
}

func newBuilder(c *schema.Cache, req *query.Request) *builder {
	if req == nil {
		req = &query.Request{}
	}
	return &builder{c: c, req: req, visited: map[string]bool{}}
}

func (b *builder) param(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

func (b *builder) alias(name string) string {
	b.aliasN++
	return name + "_" + strconv.Itoa(b.aliasN)
}

func ident(parts ...string) string { return pgx.Identifier(parts).Sanitize() }

// col is alias."name".
func col(alias, name string) string { return ident(alias) + "." + ident(name) }

func joinAnd(conds []string) string { return strings.Join(conds, " AND ") }
