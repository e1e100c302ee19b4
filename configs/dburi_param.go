package configs

import (
	"fmt"
	"strings"
)

// WithParam sets the connection parameter key to val in a connection
// string (URI or key=value form), replacing every earlier setting of it and
// keeping everything else byte for byte: e.g. the application_name that
// tells a duet's two targets apart in pg_stat_activity. key may not be one
// of host, hostaddr or port (DeriveDBURI changes those).
func WithParam(uri, key, val string) (string, error) {
	switch key {
	case "", "host", "hostaddr", "port":
		return "", fmt.Errorf("db-uri parameter %q: not settable here", key)
	}
	c, err := parseConnString(uri)
	if err != nil {
		return "", err
	}
	if !c.uri {
		out := []string{}
		for _, p := range c.kv {
			if p.key != key {
				out = append(out, p.raw)
			}
		}
		return strings.Join(append(out, key+"="+kvQuote(val)), " "), nil
	}
	base, _, _ := strings.Cut(uri, "?")
	var q []string
	for _, p := range c.query {
		if p.key != key {
			q = append(q, p.raw)
		}
	}
	q = append(q, queryEscape(key)+"="+queryEscape(val))
	return base + "?" + strings.Join(q, "&"), nil
}
