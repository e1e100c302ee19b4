package agent

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Describe implements lab.Server.
func (c *Client) Describe(ctx context.Context) (lab.Host, lab.TargetInfo, error) {
	var d Description
	if err := c.call(ctx, http.MethodGet, "/describe", nil, &d, time.Minute); err != nil {
		return lab.Host{}, lab.TargetInfo{}, err
	}
	return d.Host.lab(), d.Target.lab(), nil
}

// Apply implements lab.Server.
func (c *Client) Apply(ctx context.Context, v lab.Variant) (lab.Applied, error) {
	var a AppliedV1
	err := c.call(ctx, http.MethodPost, "/apply", ApplyRequest{Variant: variantV1(v)}, &a, 6*time.Minute)
	if se, ok := asStatus(err); ok && se.Body.Applied != nil {
		a = *se.Body.Applied
	}
	return a.lab(), err
}

// Restore implements lab.Server.
func (c *Client) Restore(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/restore", struct{}{}, nil, 6*time.Minute)
}

// Watch implements lab.Server. The window's samples are shifted so that
// their times count from when Watch returned here, the start of the
// driver's measured load, and events are converted to the driver's clock.
func (c *Client) Watch(ctx context.Context) (lab.Window, error) {
	var ws WindowStarted
	if err := c.call(ctx, http.MethodPost, "/windows", struct{}{}, &ws, 2*time.Minute); err != nil {
		return nil, err
	}
	now := time.Now()
	clk := c.Clock()
	started := clk.ToDriver(time.Unix(0, ws.Started))
	return &remoteWindow{c: c, id: ws.ID, shift: now.Sub(started), clock: clk}, nil
}

type remoteWindow struct {
	c     *Client
	id    string
	shift time.Duration // driver's load start minus the agent's window start
	clock Clock
}

// Stop implements lab.Window: the telemetry is fetched (a retry after a
// lost answer gets the agent's kept copy), then the agent may forget it.
func (w *remoteWindow) Stop(ctx context.Context, requests int64) (lab.Telemetry, error) {
	var msg TelemetryV1
	err := w.c.call(ctx, http.MethodPost, "/windows/"+w.id+"/stop", StopRequest{Requests: requests}, &msg, 2*time.Minute)
	if err != nil {
		return lab.Telemetry{}, err
	}
	tel := msg.lab()
	if err := w.c.call(ctx, http.MethodDelete, "/windows/"+w.id, nil, nil, 30*time.Second); err != nil {
		w.c.opt.Logf("agent %s: forget window %s: %v", w.c.URL(), w.id, err)
	}
	align(&tel, w.shift, w.clock)
	return tel, nil
}

// align moves samples to the driver's measured window and events to its clock.
func align(tel *lab.Telemetry, shift time.Duration, clk Clock) {
	for _, u := range []*lab.Usage{&tel.Server, &tel.Database} {
		for i := range u.Samples {
			u.Samples[i].T -= shift.Seconds()
		}
	}
	for i := range tel.Events {
		tel.Events[i].T = clk.ToDriver(tel.Events[i].T)
	}
}

func asStatus(err error) (*StatusError, bool) {
	var se *StatusError
	if err == nil {
		return nil, false
	}
	ok := errors.As(err, &se)
	return se, ok
}

var (
	_ lab.Server = (*Client)(nil)
	_ lab.Window = (*remoteWindow)(nil)
)
