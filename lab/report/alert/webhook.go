package alert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab/capability"
)

// DefaultTimeout bounds one webhook post when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Post sends m as JSON to the webhook at target, within timeout. A
// redirect is not followed (the alert goes to the URL given, nowhere
// else) and counts as a failure, as does any status but 2xx. Errors name
// the webhook as capability.RedactURL shows it, never its path.
func Post(ctx context.Context, target string, m Message, timeout time.Duration) error {
	shown := capability.RedactURL(target)
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("webhook %s: change point %s: %w", shown, m.ID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webhook %s: %s", shown, hide(err, target))
	}
	req.Header.Set("Content-Type", "application/json")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("webhook %s: no answer within %s (change point %s)", shown, timeout, m.ID)
		}
		return fmt.Errorf("webhook %s: change point %s: %s", shown, m.ID, hide(err, target))
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("webhook %s: change point %s: answered %s, want 2xx (redirects are not followed): %q",
			shown, m.ID, resp.Status, clean(strings.TrimSpace(string(msg))))
	}
	return nil
}

// hide is err's text without the URL, which net/http quotes whole.
func hide(err error, target string) string {
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err
	}
	return strings.ReplaceAll(err.Error(), target, capability.RedactURL(target))
}
