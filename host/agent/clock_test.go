package agent

import (
	"context"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// TestClockOffsetAndAlignment: an agent whose clock is 5 s ahead is
// measured as such, and its telemetry lands on the driver's clock: events
// 5 s earlier, samples relative to when Watch returned on the driver.
func TestClockOffsetAndAlignment(t *testing.T) {
	const skew = 5 * time.Second
	f := &fakeServer{}
	h, ts := newAgent(t, f, Options{})
	h.now = func() time.Time { return time.Now().Add(skew) }
	c := newClient(t, ts.URL, nil)
	if err := c.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	clk := c.Clock()
	if d := clk.Offset - skew; d < -clk.Delay || d > clk.Delay || clk.Samples != 8 {
		t.Fatalf("offset %v (delay %v), want %v within the round trip", clk.Offset, clk.Delay, skew)
	}
	w, err := c.Watch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rw := w.(*remoteWindow)
	if rw.shift < 0 || rw.shift > time.Second {
		t.Fatalf("shift %v: the agent's window start on the driver's clock should be just before now", rw.shift)
	}
	tel := lab.Telemetry{Server: lab.Usage{Samples: []lab.UsageSample{{T: 1}}}, Events: []lab.Event{{T: time.Unix(100, 0)}}}
	align(&tel, 250*time.Millisecond, Clock{Offset: skew})
	if tel.Server.Samples[0].T != 0.75 || !tel.Events[0].T.Equal(time.Unix(95, 0)) {
		t.Fatalf("aligned: sample T %v, event %v", tel.Server.Samples[0].T, tel.Events[0].T)
	}
}
