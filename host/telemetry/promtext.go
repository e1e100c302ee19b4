package telemetry

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// parsePromText reads the Prometheus text exposition format and returns
// each metric's value by name, summed over its label sets. Comments,
// timestamps and malformed lines' neighbours are handled; a malformed
// line is an error naming its line number.
func parsePromText(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		name, rest := s, ""
		if i := strings.IndexAny(s, "{ \t"); i >= 0 {
			name, rest = s[:i], s[i:]
		}
		if strings.HasPrefix(rest, "{") {
			j := labelsEnd(rest)
			if j < 0 {
				return nil, fmt.Errorf("metrics line %d: unterminated labels: %q", line, s)
			}
			rest = rest[j+1:]
		}
		f := strings.Fields(rest)
		if name == "" || len(f) == 0 || len(f) > 2 {
			return nil, fmt.Errorf("metrics line %d: want 'name[{labels}] value [timestamp]', got %q", line, s)
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return nil, fmt.Errorf("metrics line %d: value %q: %w", line, f[0], err)
		}
		out[name] += v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return out, nil
}

// labelsEnd finds the '}' closing a label set, skipping quoted values.
func labelsEnd(s string) int {
	quoted := false
	for i := 1; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == '}':
			return i
		}
	}
	return -1
}
