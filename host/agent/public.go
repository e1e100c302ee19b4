package agent

import (
	"errors"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/systemd"
)

// publicError is err as a reply may carry it: without the log lines a
// failed unit's error includes (a target that read a file it should not
// have would print it there) and with the secrets the agent knows
// (Options.Secrets) and connection passwords hidden. The agent's own log
// keeps the details (see logSafe).
func (h *Handler) publicError(err error) string {
	msg := err.Error()
	var ue *systemd.UnitError
	for e := err; errors.As(e, &ue); e = ue.Err {
		if full := ue.Error(); strings.Contains(msg, full) {
			short := *ue
			short.LogTail = ""
			brief, _, _ := strings.Cut(short.Error(), "\n(its log is empty")
			msg = strings.ReplaceAll(msg, full, brief+" (its log is in the agent host's journal, not in replies)")
		}
		if ue.Err == nil {
			break
		}
	}
	return h.opt.Secrets.RedactText(dropLogLines(msg))
}

// dropLogLines removes every "last lines of its log:" block (the marker
// and the indented lines after it) that publicError did not shorten.
func dropLogLines(msg string) string {
	const marker = "last lines of its log:"
	if !strings.Contains(msg, marker) {
		return msg
	}
	var out []string
	skipping := false
	for _, line := range strings.Split(msg, "\n") {
		switch {
		case strings.HasSuffix(line, marker):
			skipping = true
			out = append(out, strings.TrimSuffix(line, marker)+"(log lines left out of replies)")
		case skipping && strings.HasPrefix(line, "    "):
		default:
			skipping = false
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// logSafe is err for the agent's own log: one line per entry (line
// breaks of log tails are kept visible as \n, so nothing forges an entry)
// and secrets and passwords hidden as in replies.
func (h *Handler) logSafe(err error) string {
	return strings.ReplaceAll(h.opt.Secrets.RedactText(err.Error()), "\n", `\n`)
}
