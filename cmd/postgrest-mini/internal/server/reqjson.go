package server

import (
	"strings"
	"unicode/utf8"

	"github.com/valyala/fasthttp"
)

// headersJSON renders the request headers as a JSON object with lower-case
// names, the value of request.headers.
func headersJSON(ctx *fasthttp.RequestCtx) string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	ctx.Request.Header.VisitAll(func(k, v []byte) {
		if string(k) == "Cookie" {
			return
		}
		if !first {
			sb.WriteByte(',')
		}
		first = false
		appendJSONString(&sb, strings.ToLower(string(k)))
		sb.WriteByte(':')
		appendJSONString(&sb, string(v))
	})
	sb.WriteByte('}')
	return sb.String()
}

// cookiesJSON renders the cookies as a JSON object (request.cookies).
func cookiesJSON(ctx *fasthttp.RequestCtx) string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	ctx.Request.Header.VisitAllCookie(func(k, v []byte) {
		if !first {
			sb.WriteByte(',')
		}
		first = false
		appendJSONString(&sb, string(k))
		sb.WriteByte(':')
		appendJSONString(&sb, string(v))
	})
	sb.WriteByte('}')
	return sb.String()
}

func jsonString(s string) string {
	var sb strings.Builder
	appendJSONString(&sb, s)
	return sb.String()
}

// appendJSONString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(sb *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	sb.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				sb.WriteByte('\\')
				sb.WriteByte(c)
			case c < 0x20:
				sb.WriteString(`\u00`)
				sb.WriteByte(hex[c>>4])
				sb.WriteByte(hex[c&0xf])
			default:
				sb.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			sb.WriteString(`\ufffd`)
		} else {
			sb.WriteString(s[i : i+n])
		}
		i += n
	}
	sb.WriteByte('"')
}
