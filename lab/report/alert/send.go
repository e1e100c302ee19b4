package alert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/atomicfile"
	"github.com/pgrst-lab/pgrst-lab/lab/capability"
	"github.com/pgrst-lab/pgrst-lab/lab/history"
)

// The channels an alert is sent on, as the Ledger records them.
const (
	ChannelWebhook = "webhook"
	ChannelIssue   = "issue"
)

// Ledger keeps what was sent and what was acknowledged (the store).
type Ledger interface {
	Acks(ctx context.Context) (map[string]history.Ack, error)
	Sent(ctx context.Context, channel string, ids []string) (map[string]bool, error)
	MarkSent(ctx context.Context, channel string, fs []history.Found) error
}

// Options say where alerts go.
type Options struct {
	Webhook   string        // the webhook's URL ("" for none)
	IssueFile string        // where the issue's Markdown body is written ("" for none)
	Timeout   time.Duration // per webhook post (0: DefaultTimeout)
	Ledger    Ledger
	Out       io.Writer // one line per alert sent, and what was not
}

// Enabled reports whether any channel is given.
func (o Options) Enabled() bool { return o.Webhook != "" || o.IssueFile != "" }

// Send alerts about the new change points of h: each alertable one
// (History.Alertable, after the Ledger's acknowledgements) that the
// channel has not had yet. Every change point is posted to the webhook
// on its own; the issue file gets one body listing them all, and is
// removed when there is nothing new (so that a stale body is not filed
// twice). What was sent is recorded in the Ledger; a failed post is not,
// and is retried by the next Send.
func Send(ctx context.Context, h *history.History, o Options) error {
	if !o.Enabled() {
		return nil
	}
	acks, err := o.Ledger.Acks(ctx)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	h.Acknowledge(acks)
	all := h.Alertable()
	var errs []error
	if o.Webhook != "" {
		fresh, err := unsent(ctx, o.Ledger, ChannelWebhook, all)
		if err != nil {
			return err
		}
		sent := 0
		for _, f := range fresh {
			if err := Post(ctx, o.Webhook, MessageOf(h, f), o.Timeout); err != nil {
				errs = append(errs, fmt.Errorf("alerts: %w (not recorded: the next lab track sends it again)", err))
				continue
			}
			if err := o.Ledger.MarkSent(ctx, ChannelWebhook, []history.Found{f}); err != nil {
				return errors.Join(append(errs, fmt.Errorf("alerts: sent but %w", err))...)
			}
			sent++
			fmt.Fprintf(o.Out, "alert: change point %s (%s) sent to the webhook %s\n", f.Change.ID, clean(f.Series.Name()), capability.RedactURL(o.Webhook))
		}
		fmt.Fprintf(o.Out, "alerts: %d of %d change point(s) beyond the MDE sent to the webhook (the others were sent before)\n", sent, len(all))
	}
	if o.IssueFile != "" {
		if err := writeIssue(ctx, h, all, o); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// writeIssue writes the issue body of the change points the issue
// channel has not had, or removes the file when there are none.
func writeIssue(ctx context.Context, h *history.History, all []history.Found, o Options) error {
	fresh, err := unsent(ctx, o.Ledger, ChannelIssue, all)
	if err != nil {
		return err
	}
	if len(fresh) == 0 {
		if err := os.Remove(o.IssueFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("alerts: --alert-issue %s: remove the last body: %w", o.IssueFile, err)
		}
		fmt.Fprintf(o.Out, "alerts: no new change point for an issue; %s not written\n", o.IssueFile)
		return nil
	}
	var b bytes.Buffer
	if err := Issue(&b, h, fresh); err != nil {
		return err
	}
	if err := atomicfile.Write(o.IssueFile, b.Bytes(), atomicfile.Options{Mode: 0o644}); err != nil {
		return fmt.Errorf("alerts: --alert-issue: %w", err)
	}
	if err := o.Ledger.MarkSent(ctx, ChannelIssue, fresh); err != nil {
		return fmt.Errorf("alerts: %s written but %w", o.IssueFile, err)
	}
	fmt.Fprintf(o.Out, "alerts: issue body about %d new change point(s) written to %s\n", len(fresh), o.IssueFile)
	return nil
}

// unsent are the change points of all that channel has not had.
func unsent(ctx context.Context, l Ledger, channel string, all []history.Found) ([]history.Found, error) {
	ids := make([]string, len(all))
	for i, f := range all {
		ids[i] = f.Change.ID
	}
	sent, err := l.Sent(ctx, channel, ids)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	var out []history.Found
	for _, f := range all {
		if !sent[f.Change.ID] {
			out = append(out, f)
		}
	}
	return out, nil
}
