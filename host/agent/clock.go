package agent

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Clock is the agent's clock as measured from the driver, NTP-style: of
// several request/response exchanges the one with the smallest round trip
// gives offset = ((t1-t0)+(t2-t3))/2, where t0/t3 are the driver's send and
// receive times and t1/t2 the agent's receive and send times. agent time =
// driver time + Offset, to within Delay/2.
type Clock struct {
	Offset  time.Duration `json:"offset_ns"`
	Delay   time.Duration `json:"delay_ns"` // round trip of the best sample, minus the agent's time
	Samples int           `json:"samples"`
}

// ToDriver converts an agent time to the driver's clock.
func (k Clock) ToDriver(t time.Time) time.Time { return t.Add(-k.Offset) }

// MeasureClock takes n samples of GET /v1/clock.
func (c *Client) MeasureClock(ctx context.Context, n int) (Clock, error) {
	best := Clock{Delay: -1}
	for i := 0; i < n; i++ {
		var r ClockReading
		t0 := time.Now()
		if err := c.call(ctx, http.MethodGet, "/clock", nil, &r, 10*time.Second); err != nil {
			return Clock{}, fmt.Errorf("measure clock: %w", err)
		}
		t3 := time.Now()
		t1, t2 := time.Unix(0, r.Received), time.Unix(0, r.Sent)
		delay := t3.Sub(t0) - t2.Sub(t1)
		if best.Delay < 0 || delay < best.Delay {
			best.Delay = delay
			best.Offset = (t1.Sub(t0) + t2.Sub(t3)) / 2
		}
	}
	best.Samples = n
	return best, nil
}

// Clock is the offset measured by Open.
func (c *Client) Clock() Clock {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock
}
