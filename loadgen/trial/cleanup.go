package trial

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// Cleanup implements lab.Cleaner: after a built-in scenario that inserts
// rows (loadgen.Scenario.Inserts, the POST ones) it sends the
// original benchmark's DELETE of the rows it inserted, then checks with a
// GET that none is left. A request the load cut off at its end may still
// commit in the server after the first DELETE, so the two are repeated
// (with a growing pause) until the check finds no row, for 30 s at most.
func (l *Loader) Cleanup(ctx context.Context, spec lab.LoadSpec) error {
	if spec.Custom != nil || !inserts(spec.Scenario) {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c := loadgen.CleanupPOST
	check := c.Path + "&select=employee_id&limit=1"
	client := l.httpClient()
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		if _, err := l.do(ctx, client, c.Method, c.Path); err != nil {
			return err
		}
		body, err := l.do(ctx, client, "GET", check)
		if err != nil {
			return err
		}
		if bytes.Equal(bytes.TrimSpace(body), []byte("[]")) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("GET %s: rows still there after repeated deletes: %w", check, ctx.Err())
		case <-time.After(pause):
		}
	}
}

// inserts reports whether the built-in scenario of that name adds rows, so
// that the employee table would grow from trial to trial without a
// cleanup.
func inserts(scenario string) bool {
	s, err := loadgen.Builtin(scenario)
	return err == nil && s.Inserts
}

func (l *Loader) httpClient() *http.Client {
	if l.Target.UnixSocket == "" {
		return http.DefaultClient
	}
	sock := l.Target.UnixSocket
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}}}
}

// do sends one request and returns the start of its body (4 KiB at most).
func (l *Loader) do(ctx context.Context, client *http.Client, method, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(l.Target.URL, "/")+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: %s %.512s", method, path, resp.Status, body)
	}
	return body, nil
}
