package loadgen

import (
	"fmt"
	"strconv"
	"strings"
)

// Part is one piece of a request's path, header value or body as its
// template reads: literal text, or a {rand LO HI} or {seq START} field
// (Lo is then LO or START, Hi is HI). Other programs that send the lab's
// requests (the k6 export, the fixture comparison, the docs) read a
// request through Parts, so they send what the lab sends.
type Part struct {
	Text   string // literal text (Kind 0)
	Kind   byte   // 0 literal, 'r' {rand}, 's' {seq}, 'j' {jwt}
	Lo, Hi int64
}

// Parts splits s (a path, a header value or a body) into its literal
// text and template fields.
func Parts(s string) ([]Part, error) {
	segs, err := parseFields(s, newBudget())
	if err != nil {
		return nil, err
	}
	out := make([]Part, len(segs))
	for i, sg := range segs {
		out[i] = Part{Text: string(sg.lit), Kind: sg.kind, Lo: sg.lo, Hi: sg.hi}
	}
	return out, nil
}

// Fill renders parts with every {rand} field set to rand and the {seq}
// fields numbered from their START plus seq, one after the other (as the
// first request of a run numbers them when seq is 0). A {jwt} field is
// refused: it needs the run's secret.
func Fill(parts []Part, rand, seq int64) (string, error) {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case 0:
			b.WriteString(p.Text)
		case 'r':
			if rand < p.Lo || rand > p.Hi {
				return "", fmt.Errorf("{rand %d %d}: %d is outside", p.Lo, p.Hi, rand)
			}
			b.WriteString(strconv.FormatInt(rand, 10))
		case 's':
			b.WriteString(strconv.FormatInt(p.Lo+seq, 10))
			seq++
		default:
			return "", fmt.Errorf("a {jwt} field cannot be filled without the run's secret")
		}
	}
	return b.String(), nil
}

// RandRange is the range of the {rand} fields of parts (the widest when
// there are several), ok false when there is none.
func RandRange(parts []Part) (lo, hi int64, ok bool) {
	for _, p := range parts {
		if p.Kind != 'r' {
			continue
		}
		if !ok || p.Lo < lo {
			lo = p.Lo
		}
		if !ok || p.Hi > hi {
			hi = p.Hi
		}
		ok = true
	}
	return lo, hi, ok
}
