package configs

import (
	"fmt"
	"strconv"
	"strings"
)

// parseKV parses libpq's key=value form: "host=h port=5432 password='a b'",
// values optionally single-quoted with \' and \\ escapes.
func parseKV(s string) (*connString, error) {
	c := &connString{}
	i := 0
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			break
		}
		start := i
		for i < len(s) && s[i] != '=' && !isSpace(s[i]) {
			i++
		}
		key := s[start:i]
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) || s[i] != '=' || key == "" {
			return nil, fmt.Errorf("db-uri: missing = after %q in key=value connection string", key)
		}
		i++
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				if s[i] == '\\' && i+1 < len(s) {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				if s[i] == '\'' {
					i++
					closed = true
					break
				}
				val.WriteByte(s[i])
				i++
			}
			if !closed {
				return nil, fmt.Errorf("db-uri: unterminated quoted value for %q", key)
			}
		} else {
			for i < len(s) && !isSpace(s[i]) {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				val.WriteByte(s[i])
				i++
			}
		}
		c.kv = append(c.kv, param{key: key, val: val.String(), raw: s[start:i]})
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
