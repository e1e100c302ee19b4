package reconcile

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/pgrst-lab/pgrst-lab/host/telemetry"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// PoolInterval is how often PostgREST's /metrics is scraped during a window.
const PoolInterval = 500 * time.Millisecond

// poolWatch scrapes PostgREST's pool metrics while a window is open.
type poolWatch struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	first *telemetry.PoolMetrics
	stats lab.PoolStats
	last  telemetry.PoolMetrics
}

// watchPool takes the window's first scrape before it returns, so that the
// counters' baseline (the JWT cache's, the pool's timeouts) comes before
// any of the window's requests, and then scrapes every PoolInterval.
func watchPool(ctx context.Context, adminURL string) *poolWatch {
	ctx, cancel := context.WithCancel(ctx)
	p := &poolWatch{cancel: cancel, done: make(chan struct{})}
	client := &http.Client{Timeout: 2 * time.Second}
	p.scrape(ctx, client, adminURL)
	go func() {
		defer close(p.done)
		t := time.NewTicker(PoolInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			p.scrape(ctx, client, adminURL)
		}
	}()
	return p
}

func (p *poolWatch) scrape(ctx context.Context, client *http.Client, adminURL string) {
	m, err := telemetry.ScrapePool(ctx, client, adminURL)
	if err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		p.first = &m
		p.stats.MinAvailable = int(m.Available)
	}
	p.last = m
	p.stats.Scrapes++
	p.stats.Size = int(m.Max)
	p.stats.MinAvailable = min(p.stats.MinAvailable, int(m.Available))
	p.stats.MaxInUse = max(p.stats.MaxInUse, int(m.InUse()))
	p.stats.MaxWaiting = max(p.stats.MaxWaiting, int(m.ReallyWaiting()))
	p.stats.MaxGauge = max(p.stats.MaxGauge, int(m.Waiting))
}

// stop ends the scraping with a last scrape and returns the summary, or nil
// when no scrape succeeded (no admin server, or not PostgREST 12.2+).
func (p *poolWatch) stop(ctx context.Context, adminURL string) *lab.PoolStats {
	p.cancel()
	<-p.done
	p.scrape(ctx, &http.Client{Timeout: 2 * time.Second}, adminURL)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		return nil
	}
	s := p.stats
	s.Timeouts = int64(p.last.Timeouts - p.first.Timeouts)
	return &s
}

// jwtCache is how much PostgREST's JWT cache counters rose between the
// window's first and last scrapes, or nil when either scrape lacks them
// (PostgREST before 14.0, postgrest-mini) or they fell (a restart reset
// them): unknown, not zero. Call after stop.
func (p *poolWatch) jwtCache() *lab.JWTCacheStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		return nil
	}
	r0, h0, e0, ok0 := p.first.JWTCache()
	r1, h1, e1, ok1 := p.last.JWTCache()
	if !ok0 || !ok1 || r1 < r0 || h1 < h0 || e1 < e0 {
		return nil
	}
	return &lab.JWTCacheStats{Requests: int64(r1 - r0), Hits: int64(h1 - h0), Evictions: int64(e1 - e0)}
}
