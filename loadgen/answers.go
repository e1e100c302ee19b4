package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/median"
)

// MaxAnswerSize bounds one answer Answers reads (GETAllEmbed's is about
// 800 KB on Chinook).
const MaxAnswerSize = 64 << 20

// Answer is what a scenario's requests answered when each was sent once
// for every value of its {rand} range (once when it has none): how many
// were sent, how many answered an empty array "[]", and the sizes of the
// answers' bodies in bytes.
type Answer struct {
	Scenario         string
	Requests, Empty  int
	Min, Median, Max float64
	Total            int64
}

// Mean is the answers' mean body size in bytes.
func (a Answer) Mean() float64 {
	if a.Requests == 0 {
		return 0
	}
	return float64(a.Total) / float64(a.Requests)
}

// Answers sends s's requests to the server at baseURL, as the load does
// (the same paths, headers and bodies, from Parts and Fill), each once for
// every id of its {rand} range, and measures the answers. A status other
// than the request's Expect is an error. After a scenario that inserts it
// sends CleanupPOST, as a trial does.
func Answers(ctx context.Context, client *http.Client, baseURL string, s Scenario) (Answer, error) {
	a := Answer{Scenario: s.Name}
	var sizes []float64
	for _, r := range s.Requests {
		path, err := Parts(r.Path)
		if err != nil {
			return a, fmt.Errorf("%s: path: %w", s.Name, err)
		}
		body, err := Parts(string(r.Body))
		if err != nil {
			return a, fmt.Errorf("%s: body: %w", s.Name, err)
		}
		lo, hi, ok := RandRange(path)
		if !ok {
			lo, hi = 0, 0
		}
		seqs := int64(0)
		for _, p := range body {
			if p.Kind == 's' {
				seqs++
			}
		}
		for v := lo; v <= hi; v++ {
			p, err := Fill(path, v, 0)
			if err != nil {
				return a, fmt.Errorf("%s: path: %w", s.Name, err)
			}
			b, err := Fill(body, v, int64(a.Requests)*seqs)
			if err != nil {
				return a, fmt.Errorf("%s: body: %w", s.Name, err)
			}
			got, err := send(ctx, client, baseURL, Request{Method: r.Method, Path: p, Header: r.Header, Body: []byte(b), Expect: r.Expect})
			if err != nil {
				return a, fmt.Errorf("%s: %w", s.Name, err)
			}
			a.Requests++
			a.Total += int64(len(got))
			sizes = append(sizes, float64(len(got)))
			if bytes.Equal(bytes.TrimSpace(got), []byte("[]")) {
				a.Empty++
			}
		}
	}
	if len(sizes) > 0 {
		a.Min, a.Median, a.Max = slices.Min(sizes), median.Of(sizes), slices.Max(sizes)
	}
	if s.Inserts {
		c := CleanupPOST
		c.Expect = 0
		if _, err := send(ctx, client, baseURL, c); err != nil {
			return a, fmt.Errorf("%s: cleanup: %w", s.Name, err)
		}
	}
	return a, nil
}

// send sends r (no templates left) and returns the answer's body; a status
// other than r.Expect (0: any 2xx) is an error.
func send(ctx context.Context, client *http.Client, baseURL string, r Request) ([]byte, error) {
	var body io.Reader
	if len(r.Body) > 0 {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, strings.TrimRight(baseURL, "/")+r.Path, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", userAgent)
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswerSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: read the answer: %w", r.Method, r.Path, err)
	}
	if len(got) > MaxAnswerSize {
		return nil, fmt.Errorf("%s %s: the answer is over %d bytes", r.Method, r.Path, MaxAnswerSize)
	}
	if r.Expect == 0 && (resp.StatusCode < 200 || resp.StatusCode > 299) || r.Expect > 0 && resp.StatusCode != r.Expect {
		return nil, fmt.Errorf("%s %s: status %d, want %s", r.Method, r.Path, resp.StatusCode, expectText(r.Expect))
	}
	return got, nil
}

func expectText(e int) string {
	if e == 0 {
		return "any 2xx"
	}
	return fmt.Sprint(e)
}
