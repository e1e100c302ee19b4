package configs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/connstr"
)

// parseKV parses libpq's key=value form: "host=h port=5432 password='a b'",
// values optionally single-quoted with \' and \\ escapes.
func parseKV(s string) (*connString, error) {
	ps, err := connstr.SplitKV(s)
	if err != nil {
		return nil, fmt.Errorf("db-uri: %w", err)
	}
	c := &connString{}
	for _, p := range ps {
		c.kv = append(c.kv, param{key: p.Key, val: p.Val, raw: p.Raw})
	}
	if err := c.applyParams(c.kv); err != nil {
		return nil, err
	}
	return c, nil
}

// renderKV writes the key=value form with host and port replaced (in
// place, or appended) and hostaddr dropped; other pairs are kept as written.
func (c *connString) renderKV(host string, port int) string {
	var out []string
	hostDone, portDone := false, false
	for _, p := range c.kv {
		switch p.key {
		case "host":
			out = append(out, "host="+kvQuote(host))
			hostDone = true
		case "port":
			out = append(out, "port="+strconv.Itoa(port))
			portDone = true
		case "hostaddr":
		default:
			out = append(out, p.raw)
		}
	}
	if !hostDone {
		out = append([]string{"host=" + kvQuote(host)}, out...)
	}
	if !portDone {
		out = append(out, "port="+strconv.Itoa(port))
	}
	return strings.Join(out, " ")
}

func kvQuote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r'\\") {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(v) + "'"
}
