package alert

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// AckLedger finds change points alerted before and records
// acknowledgements (the store).
type AckLedger interface {
	Alerted(ctx context.Context, id string) (history.Key, bool, error)
	Acknowledge(ctx context.Context, k history.Key, note string) (time.Time, error)
}

var idRe = regexp.MustCompile(fmt.Sprintf(`^[0-9a-f]{%d}$`, history.IDLen))

// Acknowledge records an acknowledgement with a note of the change point
// id: one an alert was sent about, else one found in the histories of
// runs (every experiment's, every metric, with o's detector: `lab track
// --max-p 0.01` found some that the default does not). An id that names
// neither is an error, so that a mistyped id acknowledges nothing.
func Acknowledge(ctx context.Context, l AckLedger, id, note string, runs func(context.Context) ([]history.Run, error), o history.Options) (history.Key, time.Time, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	switch {
	case !idRe.MatchString(id):
		return history.Key{}, time.Time{}, fmt.Errorf("ack %q: want a change point's id, %d hex digits as lab history and lab track print it (\"id 3f2a9c1b7d0e\")", id, history.IDLen)
	case strings.TrimSpace(note) == "":
		return history.Key{}, time.Time{}, fmt.Errorf("ack %s: give --note TEXT: why the change is known (it is shown beside the change point)", id)
	}
	k, ok, err := l.Alerted(ctx, id)
	if err != nil {
		return k, time.Time{}, err
	}
	if !ok {
		rs, err := runs(ctx)
		if err != nil {
			return k, time.Time{}, err
		}
		f, found := history.FindIn(rs, id, o)
		if !found {
			return k, time.Time{}, fmt.Errorf("ack %s: no change point has this id: none was alerted, and the %d stored run(s) show none "+
				"(every metric, max-p %s); a change point lab track found with --max-p needs the same --max-p here", id, len(rs), maxP(o))
		}
		k = f.Change.Key
	}
	at, err := l.Acknowledge(ctx, k, strings.TrimSpace(note))
	return k, at, err
}

func maxP(o history.Options) string {
	if o.Detect.MaxP == 0 {
		return "0.001 (the default)"
	}
	return fmt.Sprint(o.Detect.MaxP)
}
