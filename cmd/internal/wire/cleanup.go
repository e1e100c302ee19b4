package wire

import (
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

// postScenarios insert rows that the original benchmark deleted after each
// run, so that the employee table does not grow from trial to trial.
var postScenarios = map[string]bool{"POSTSingle": true, "POSTBulk": true}

// Cleanup implements lab.Cleaner: after a POST scenario it sends the
// original benchmark's DELETE of the rows it inserted.
func (l *Loader) Cleanup(ctx context.Context, spec lab.LoadSpec) error {
	if spec.Custom != nil || !postScenarios[spec.Scenario] {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c := loadgen.CleanupPOST
	req, err := http.NewRequestWithContext(ctx, c.Method, strings.TrimRight(l.Target.URL, "/")+c.Path, nil)
	if err != nil {
		return err
	}
	client := http.DefaultClient
	if l.Target.UnixSocket != "" {
		sock := l.Target.UnixSocket
		client = &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}}}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", c.Method, c.Path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", c.Method, c.Path, resp.Status, body)
	}
	return nil
}
