package telemetry

import (
	"math"
	"time"
)

// DefaultBudget is the share of one core the sampler may spend reading
// per-process details (RSS, threads, fds, context switches): 1%.
const DefaultBudget = 0.01

// budget spaces out the per-process ("detail") reads so that their cost
// stays within a share of one core. Listing a cgroup's processes and
// reading its CPU counter happen on every tick; the per-process files
// cost ~10-40 µs each, so a PostgreSQL with 100 backends would take
// several percent of a core at 10 Hz if read every tick.
type budget struct {
	share    float64       // of one core
	interval time.Duration // sampling interval
	cost     float64       // smoothed CPU seconds of one detailed tick (all sources)
	every    int           // take details every this many ticks
	tick     int
}

func newBudget(share float64, interval time.Duration) *budget {
	return &budget{share: share, interval: interval, every: 1}
}

// detail says whether this tick reads per-process details.
func (b *budget) detail() bool {
	b.tick++
	if b.tick >= b.every {
		b.tick = 0
		return true
	}
	return false
}

// observe records the cost of a detailed tick and sets the spacing:
// details every ceil(cost / (share × interval)) ticks.
func (b *budget) observe(cost time.Duration) {
	c := cost.Seconds()
	if b.cost == 0 {
		b.cost = c
	} else {
		b.cost = 0.7*b.cost + 0.3*c
	}
	allowed := b.share * b.interval.Seconds()
	if b.share <= 0 || allowed <= 0 {
		b.every = 1
		return
	}
	b.every = max(1, int(math.Ceil(b.cost/allowed)))
}
