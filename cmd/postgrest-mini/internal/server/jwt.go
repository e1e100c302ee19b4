package server

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/pgrst-lab/pgrst-lab/cmd/postgrest-mini/internal/apierr"
	"github.com/valyala/fasthttp"
)

// jwtSkew is the clock skew PostgREST 13 allows on exp.
const jwtSkew = 30 * time.Second

// auth is who a request runs as: the role and the claims JSON for
// request.jwt.claims.
type auth struct {
	role, claims string
}

// authenticate reads an "Authorization: Bearer" JWT like PostgREST: HS256
// signed with jwt-secret, exp checked (30 s skew), the role claim choosing
// the database role (db-anon-role without one). Without a token the request
// is anonymous.
func (s *Server) authenticate(ctx *fasthttp.RequestCtx) (auth, *apierr.Error) {
	h := ctx.Request.Header.Peek("Authorization")
	if len(h) == 0 {
		if s.opts.AnonRole == "" {
			return auth{}, apierr.AnonDisabled()
		}
		return auth{role: s.opts.AnonRole, claims: s.claims}, nil
	}
	tok, ok := cutBearer(h)
	if !ok {
		return auth{}, jwtError("PGRST301", "Expected 3 parts in JWT; got 1")
	}
	if s.opts.JWTSecret == "" {
		return auth{}, apierr.New(500, "PGRST300", "Server lacks JWT secret")
	}
	payload, aerr := verifyHS256(tok, []byte(s.opts.JWTSecret))
	if aerr != nil {
		return auth{}, aerr
	}
	var c struct {
		Exp  *float64 `json:"exp"`
		Role *string  `json:"role"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return auth{}, jwtError("PGRST301", "JWT claims are not a JSON object")
	}
	if c.Exp != nil && time.Unix(int64(*c.Exp), 0).Add(jwtSkew).Before(time.Now()) {
		return auth{}, jwtError("PGRST303", "JWT expired")
	}
	role := s.opts.AnonRole
	if c.Role != nil {
		role = *c.Role
	}
	if role == "" {
		return auth{}, apierr.AnonDisabled()
	}
	return auth{role: role, claims: string(payload)}, nil
}

func cutBearer(h []byte) (string, bool) {
	const p = "bearer "
	if len(h) < len(p) || !strings.EqualFold(string(h[:len(p)]), p) {
		return "", false
	}
	return strings.TrimSpace(string(h[len(p):])), true
}

// verifyHS256 checks a compact JWS signed with HMAC-SHA256 and returns its
// decoded payload.
func verifyHS256(tok string, secret []byte) ([]byte, *apierr.Error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, jwtError("PGRST301", "Expected 3 parts in JWT; got "+strconv.Itoa(len(parts)))
	}
	hdr, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	payload, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	sig, err3 := base64.RawURLEncoding.DecodeString(parts[2])
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, jwtError("PGRST301", "JWT cryptographic operation failed")
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(hdr, &h) != nil || h.Alg != "HS256" {
		return nil, jwtError("PGRST301", "No suitable key or wrong key type")
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(m.Sum(nil), sig) {
		return nil, jwtError("PGRST301", "No suitable key or wrong key type").WithDetails("None of the keys was able to decode the JWT")
	}
	return bytes.TrimSpace(payload), nil
}

func jwtError(code, msg string) *apierr.Error { return apierr.New(401, code, msg) }
