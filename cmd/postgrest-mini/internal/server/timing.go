package server

import (
	"strconv"
	"time"

	"github.com/valyala/fasthttp"
)

// The Server-Timing phases, in PostgREST 13's order.
const (
	phaseJWT = iota
	phaseParse
	phasePlan
	phaseTransaction
	phaseResponse
	nPhases
)

var phaseNames = [nPhases]string{"jwt", "parse", "plan", "transaction", "response"}

// phases times a request's phases for the Server-Timing header
// (server-timing-enabled): each lap adds the time since the previous one
// to a phase.
type phases struct {
	last time.Time
	d    [nPhases]time.Duration
}

func (p *phases) lap(phase int) {
	now := time.Now()
	p.d[phase] += now.Sub(p.last)
	p.last = now
}

// header writes Server-Timing as PostgREST 13 does:
// "jwt;dur=0.0, parse;dur=0.1, plan;dur=0.1, transaction;dur=0.8, response;dur=0.0"
// (milliseconds, one decimal).
func (p *phases) header(ctx *fasthttp.RequestCtx) {
	var b [128]byte
	v := b[:0]
	for i, d := range p.d {
		if i > 0 {
			v = append(v, ", "...)
		}
		v = append(v, phaseNames[i]...)
		v = append(v, ";dur="...)
		v = strconv.AppendFloat(v, float64(d)/float64(time.Millisecond), 'f', 1, 64)
	}
	ctx.Response.Header.SetBytesV("Server-Timing", v)
}
