package load

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
)

// SearchText writes the curve and the answer as a table.
func SearchText(w io.Writer, sr *Search) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "asked req/s\tgot req/s\tp50\tp99\tmax\terrors\tdropped\tverdict\t")
	for _, p := range sr.Curve {
		v := "ok"
		if !p.Pass {
			v = p.Why
		}
		textsafe.Fprintf(tw, "%.0f\t%.0f\t%s\t%s\t%s\t%.2f%%\t%.2f%%\t%s\t\n", p.Asked, p.Rate, fd(p.P50), fd(p.P99), fd(p.Max),
			100*p.ErrorRate, 100*p.DroppedRate, v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "highest rate meeting the limit: %.0f req/s\n", sr.Best)
	return err
}

// SearchJSON writes {"best": ..., "curve": [JSONReport + asked rate, pass]}.
func SearchJSON(w io.Writer, sr *Search) error {
	type point struct {
		Asked float64 `json:"asked_rate"`
		Pass  bool    `json:"pass"`
		Why   string  `json:"why,omitempty"`
		JSONReport
	}
	out := struct {
		Best  float64 `json:"best"`
		Curve []point `json:"curve"`
	}{Best: sr.Best}
	for _, p := range sr.Curve {
		out.Curve = append(out.Curve, point{Asked: p.Asked, Pass: p.Pass, Why: p.Why, JSONReport: NewJSONReport(&p.Result, false)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
