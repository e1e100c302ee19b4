package server

import (
	"strconv"
	"time"

	"github.com/valyala/fasthttp"
)

// accessLog writes one Apache-combined line per request, as PostgREST does
// (wai-logger): all requests at info, 4xx and 5xx at warn, 5xx at error,
// none at crit. Each line is one unbuffered write, so logging has PostgREST's
// real per-request cost.
func (s *Server) accessLog(ctx *fasthttp.RequestCtx, start time.Time) {
	status := ctx.Response.StatusCode()
	switch s.opts.LogLevel {
	case LogCrit:
		return
	case LogError:
		if status < 500 {
			return
		}
	case LogWarn:
		if status < 400 {
			return
		}
	}
	b := make([]byte, 0, 256)
	b = append(b, remoteHost(ctx)...)
	b = append(b, " - "...)
	b = append(b, s.opts.AnonRole...)
	b = append(b, " ["...)
	b = start.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] \""...)
	b = append(b, ctx.Method()...)
	b = append(b, ' ')
	b = append(b, ctx.RequestURI()...)
	b = append(b, " HTTP/1.1\" "...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	if n := len(ctx.Response.Body()); n > 0 {
		b = strconv.AppendInt(b, int64(n), 10)
	} else {
		b = append(b, '-')
	}
	b = append(b, " \""...)
	b = append(b, ctx.Referer()...)
	b = append(b, "\" \""...)
	b = append(b, ctx.UserAgent()...)
	b = append(b, "\"\n"...)
	_, _ = s.opts.AccessLog.Write(b)
}

func remoteHost(ctx *fasthttp.RequestCtx) string {
	if a := ctx.RemoteIP(); a != nil && !a.IsUnspecified() {
		return a.String()
	}
	return "unix"
}
