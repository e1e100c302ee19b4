package loadgen

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseMix reads a mix of built-in scenarios, "NAME[:WEIGHT],..." (each
// weight positive, 1 when left out), as `lab load --scenario` takes it.
func ParseMix(spec string) ([]Weighted, error) {
	var mix []Weighted
	for _, part := range strings.Split(spec, ",") {
		name, w := part, 1.0
		if i := strings.LastIndexByte(part, ':'); i >= 0 {
			v, err := strconv.ParseFloat(part[i+1:], 64)
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("%q: weight %q must be a positive number", spec, part[i+1:])
			}
			name, w = part[:i], v
		}
		s, err := Builtin(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		mix = append(mix, Weighted{Scenario: s, Weight: w})
	}
	return mix, nil
}

// ParseRates reads a list of positive rates, "R1,R2,...".
func ParseRates(spec string) ([]float64, error) {
	var rates []float64
	for _, r := range strings.Split(spec, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(r), 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q: %q is not a positive rate", spec, r)
		}
		rates = append(rates, v)
	}
	return rates, nil
}

// ParseHeader reads one "Name: value" header.
func ParseHeader(h string) (name, value string, err error) {
	k, v, ok := strings.Cut(h, ":")
	if !ok {
		return "", "", fmt.Errorf("%q: want 'Name: value'", h)
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), nil
}

// SplitURL splits http://host[:port]/path?query into the base and the path
// (at least "/"), without parsing the path so that template fields survive.
func SplitURL(u string) (base, path string) {
	rest := u
	scheme := ""
	if i := strings.Index(u, "://"); i >= 0 {
		scheme, rest = u[:i+3], u[i+3:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		path = rest[i:]
		rest = rest[:i]
	}
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	return scheme + rest, path
}
