package lab

import (
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// Touches says what lab run does to the existing server a [target] names,
// with the rights of whoever runs it ("" for the local stack's): an
// untrusted file's [target] is as powerful as its runner (SECURITY.md).
// The URI's password is hidden.
func (t Target) Touches() string {
	var do []string
	if t.Config != "" {
		do = append(do, "rewrites "+t.Config+" (restored after)")
	}
	if t.Unit != "" {
		do = append(do, "restarts "+t.Unit)
	}
	if t.PGURI != "" {
		do = append(do, "changes PostgreSQL settings as "+capability.RedactURI(t.PGURI)+" (restored after)")
	}
	if t.PGUnit != "" {
		do = append(do, "may restart "+t.PGUnit)
	}
	if len(do) == 0 {
		return ""
	}
	return "lab run " + strings.Join(do, ", ") + ", with the rights of whoever runs it"
}
