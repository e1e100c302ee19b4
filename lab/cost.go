package lab

import (
	"fmt"
	"math"
)

// Cost is what an hour of a host costs ([cost]; run.json's "cost"), for
// the cost of a million requests at a limits table's rates: one price
// for the whole host (Hour), or per vCPU-hour and per GB-hour of memory,
// which the host's cores and memory turn into one; Hosts prices hosts by
// name (a matrix's hosts, as `lab run --agent` labels them) and wins over
// both. Like Load, it is one declaration: the file's toml tags and
// run.json's json tags (record.CostV1 is this type).
type Cost struct {
	Currency string             `toml:"currency" json:"currency,omitempty"` // shown before prices ("" = "$")
	Hour     float64            `toml:"hour" json:"hour,omitempty"`
	VCPUHour float64            `toml:"vcpu_hour" json:"vcpu_hour,omitempty"`
	GBHour   float64            `toml:"gb_hour" json:"gb_hour,omitempty"`
	Hosts    map[string]float64 `toml:"hosts" json:"hosts,omitempty"`
}

// Set reports whether any price is given.
func (c Cost) Set() bool { return c.Hour > 0 || c.VCPUHour > 0 || c.GBHour > 0 || len(c.Hosts) > 0 }

// Symbol is the currency shown before prices.
func (c Cost) Symbol() string {
	if c.Currency == "" {
		return "$"
	}
	return c.Currency + " "
}

// PerHour is the price of an hour of host h (named name in a matrix, or
// h.Hostname): its Hosts entry, else Hour, else its vCPUs and memory at
// VCPUHour and GBHour; ok is false when nothing prices it.
func (c Cost) PerHour(name string, h Host) (float64, bool) {
	if name == "" {
		name = h.Hostname
	}
	if p, ok := c.Hosts[name]; ok {
		return p, true
	}
	if c.Hour > 0 {
		return c.Hour, true
	}
	if c.VCPUHour <= 0 && c.GBHour <= 0 {
		return 0, false
	}
	return c.VCPUHour*float64(h.CPUs) + c.GBHour*float64(h.MemoryBytes)/(1<<30), true
}

// PerMillion is the cost of a million requests served at rate requests/s
// on host h: an hour's price over the hour's requests, times a million.
// NaN when nothing prices the host or the rate is not positive.
func (c Cost) PerMillion(name string, h Host, rate float64) float64 {
	p, ok := c.PerHour(name, h)
	if !ok || rate <= 0 {
		return math.NaN()
	}
	return p / (rate * 3600) * 1e6
}

// Check says what is wrong with the prices ("" = nothing).
func (c Cost) Check() string {
	for _, p := range []struct {
		name string
		v    float64
	}{{"hour", c.Hour}, {"vcpu_hour", c.VCPUHour}, {"gb_hour", c.GBHour}} {
		if p.v < 0 || math.IsNaN(p.v) || math.IsInf(p.v, 0) {
			return fmt.Sprintf("%s = %v: a price must be a finite number >= 0", p.name, p.v)
		}
	}
	for name, v := range c.Hosts {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Sprintf("hosts.%s = %v: a price must be a finite number > 0", name, v)
		}
	}
	return ""
}
