package agent

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Health asks whether the agent is up (GET /v1/health).
func (c *Client) Health(ctx context.Context) (Health, error) {
	var h Health
	err := c.call(ctx, http.MethodGet, "/health", nil, &h, 10*time.Second)
	return h, err
}

// Open measures the clock offset, takes the agent and starts renewing the
// lease in the background.
func (c *Client) Open(ctx context.Context) error {
	clk, err := c.MeasureClock(ctx, 8)
	if err != nil {
		return err
	}
	var s Lease
	if err := c.call(ctx, http.MethodPost, "/session", LeaseRequest{Driver: c.opt.Driver}, &s, 30*time.Second); err != nil {
		return err
	}
	hbCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.mu.Lock()
	c.leaseID, c.lost, c.clock = s.ID, nil, clk
	c.stopHB, c.hbDone = cancel, make(chan struct{})
	c.mu.Unlock()
	go c.heartbeat(hbCtx, s.Duration(), c.hbDone)
	c.opt.Logf("agent %s: session %s, lease %v, clock offset %v (round trip %v)", c.URL(), s.ID, s.Duration(), clk.Offset, clk.Delay)
	return nil
}

// heartbeat renews the lease every lease/5 until stopped or the lease is lost.
func (c *Client) heartbeat(ctx context.Context, lease time.Duration, done chan struct{}) {
	defer close(done)
	every := max(lease/5, 50*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		id := c.leaseID
		c.mu.Unlock()
		err := c.once(ctx, http.MethodPost, "/session/renew", id, "", []byte("{}"), nil, every)
		if err != nil && ctx.Err() == nil {
			c.opt.Logf("agent %s: lease renewal: %v", c.URL(), err)
			if se, ok := err.(*StatusError); ok && se.Status == http.StatusGone {
				return
			}
		}
	}
}

// Close stops the renewals and ends the lease; the agent restores the
// original configuration if a variant is still in place.
func (c *Client) Close(ctx context.Context) error {
	c.mu.Lock()
	stop, done, id, lost := c.stopHB, c.hbDone, c.leaseID, c.lost
	c.mu.Unlock()
	if stop == nil {
		return nil
	}
	stop()
	<-done
	var err error
	if lost == nil {
		err = c.call(ctx, http.MethodDelete, "/session", nil, nil, 5*time.Minute)
	}
	c.mu.Lock()
	c.leaseID, c.stopHB = "", nil
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("close session %s: %w", id, err)
	}
	return lost
}

// Lost is the reason the lease was lost (it expired), or nil.
func (c *Client) Lost() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost
}
