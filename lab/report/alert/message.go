package alert

import (
	"fmt"
	"math"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// Message is the JSON body posted to the webhook for one change point:
// Text for Slack (and anything reading a "text" field), the rest for
// programs.
type Message struct {
	Text       string   `json:"text"`
	ID         string   `json:"id"`   // the change point's id (lab history ack ID)
	Kind       string   `json:"kind"` // regression, improvement or change
	Experiment string   `json:"experiment"`
	Host       string   `json:"host"` // the machine's name
	Scenario   string   `json:"scenario"`
	Variant    string   `json:"variant"`
	Metric     string   `json:"metric"` // lab.Metric.Name, e.g. db_cpu
	Unit       string   `json:"unit"`
	ChangePct  float64  `json:"change_pct"`
	CILowPct   *float64 `json:"ci_low_pct"` // null when unbounded
	CIHighPct  *float64 `json:"ci_high_pct"`
	P          float64  `json:"p"`
	MDEPct     float64  `json:"mde_pct"`
	From       float64  `json:"from"` // the levels before and after
	To         float64  `json:"to"`
	// Before is the last commit (else run) at the old level, After the
	// first at the new one: the change happened in Before..After.
	Before    string `json:"before"`
	After     string `json:"after"`
	BeforeRun string `json:"before_run"`
	AfterRun  string `json:"after_run"`
}

// MessageOf is the message about change point f of history h.
func MessageOf(h *history.History, f history.Found) Message {
	c, s := f.Change, f.Series
	m := Message{ID: c.ID, Kind: kind(c), Experiment: clean(h.Experiment), Host: clean(f.Group.Hostname),
		Scenario: clean(s.Scenario), Variant: clean(s.Variant), Metric: s.Metric.Name, Unit: s.Metric.Unit,
		ChangePct: c.Pct, CILowPct: finite(c.LoPct), CIHighPct: finite(c.HiPct), P: c.P, MDEPct: c.MDEPct, From: c.From, To: c.To,
		Before: clean(pointName(c.Before)), After: clean(pointName(c.After)), BeforeRun: clean(c.Before.ID), AfterRun: clean(c.After.ID)}
	if math.IsInf(m.MDEPct, 0) || math.IsNaN(m.MDEPct) {
		m.MDEPct = 0
	}
	m.Text = fmt.Sprintf("pgrst-lab %s: %s %+.1f%% of %s in %s / %s / %s on %s, between %s and %s (p=%.2g, beyond the runs' MDE ±%.1f%%). "+
		"id %s; to acknowledge: lab history ack %s --note '...'",
		slack(m.Experiment), m.Kind, m.ChangePct, slack(s.Metric.Label), slack(m.Experiment), slack(m.Scenario), slack(m.Variant), slack(m.Host),
		slack(short(m.Before)), slack(short(m.After)), m.P, m.MDEPct, m.ID, m.ID)
	return m
}

// kind is "regression", "improvement" or "change".
func kind(c *history.Change) string {
	s, _, _ := strings.Cut(c.What(), " (")
	return s
}

// pointName is a point's commit, else its run's ID.
func pointName(p history.Point) string {
	if p.Commit != "" {
		return p.Commit
	}
	return p.ID
}

// short is a commit's first seven digits (history.ShortCommit).
func short(s string) string { return history.ShortCommit(s) }

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func clean(s string) string { return textsafe.CleanText(s) }

// slackEscaper escapes the three characters Slack's text reads as markup.
var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func slack(s string) string { return slackEscaper.Replace(s) }
