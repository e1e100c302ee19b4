package loadgen

import (
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxJWTPool bounds pool=N of a {jwt} field.
const MaxJWTPool = 100_000

// jwtField is a `{jwt CLAIM=VALUE... [unique|pool=N] [alg=RS256] [kid=ID]}`
// template field: an HS256 token signed with the run's JWTSecret, or with
// alg=RS256 an RS256 token signed with the run's JWTPrivateKey (kid=ID puts
// a key id in the header, for a JWKS that names its keys).
//
//   - default (pool=1): one token, signed when the run starts;
//   - pool=N: N tokens differing in their jti claim, signed when the run
//     starts and sent in turn (a JWT cache's best case: N entries);
//   - unique: a fresh token per request (jti = a run-wide counter), signed
//     per request (the cache's worst case: every token is new).
//
// exp, iat and nbf take "+DURATION" (from the run's start, e.g. exp=+1h) or
// a Unix time; other claims are strings.
type jwtField struct {
	src    string   // the field as written, for errors
	tokens [][]byte // pool tokens; nil when unique
	next   atomic.Uint64
	// unique tokens: head is base64url(header) + "."; prefix and suffix
	// surround the counter in the claims JSON.
	head, prefix, suffix []byte
	seq                  atomic.Int64
	alg, kid             string // header: "HS256" or "RS256"; "" or the key id
	secret               []byte
	rsa                  *rsa.PrivateKey // RS256's key, set by bind
	macs                 sync.Pool       // *jwtScratch
}

type jwtScratch struct {
	mac     hash.Hash
	payload []byte
	sig     []byte
}

// jwtHeader is the field's header, base64url-encoded, with its dot.
func jwtHeader(alg, kid string) string {
	h := map[string]any{"alg": alg, "typ": "JWT"}
	if kid != "" {
		h["kid"] = kid
	}
	b, _ := marshalSorted(h) // strings only: cannot fail
	return base64.RawURLEncoding.EncodeToString(b) + "."
}

// parseJWT reads the words after "jwt" (secret is set later, by bindJWT),
// drawing its pool's tokens from b.
func parseJWT(words []string, b *budget) (*jwtField, error) {
	f := &jwtField{src: "{" + strings.Join(append([]string{"jwt"}, words...), " ") + "}"}
	// bad's safe text is the reason alone (what quotes the field is left out).
	bad := func(safe, format string, args ...any) error {
		const want = " (want {jwt role=NAME exp=+1h [unique|pool=N] [alg=HS256|RS256] [kid=ID]})"
		return &safeError{safe: "{jwt}: " + safe + want, full: fmt.Sprintf("field %s: %s", f.src, fmt.Sprintf(format, args...)) + want}
	}
	claims := map[string]any{}
	pool, unique := 1, false
	f.alg = "HS256"
	now := time.Now()
	for _, w := range words {
		if w == "unique" {
			unique = true
			continue
		}
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return nil, bad("a word is not CLAIM=VALUE", "%q is not CLAIM=VALUE", w)
		}
		switch k {
		case "pool":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxJWTPool {
				return nil, bad(fmt.Sprintf("pool=N: want 1..%d", MaxJWTPool), "pool=%s: want 1..%d", v, MaxJWTPool)
			}
			pool = n
		case "alg":
			if v != "HS256" && v != "RS256" {
				return nil, bad("alg: want HS256 or RS256", "alg=%s: want HS256 or RS256", v)
			}
			f.alg = v
		case "kid":
			if v == "" || len(v) > 200 {
				return nil, bad("kid: want 1..200 characters", "kid=%s: want 1..200 characters", v)
			}
			f.kid = v
		case "exp", "iat", "nbf":
			if d, ok := strings.CutPrefix(v, "+"); ok {
				dur, err := time.ParseDuration(d)
				if err != nil {
					return nil, bad(k+": want +DURATION (+1h) or a Unix time", "%s=%s: want +DURATION (+1h) or a Unix time", k, v)
				}
				claims[k] = now.Add(dur).Unix()
			} else if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				claims[k] = n
			} else {
				return nil, bad(k+": want +DURATION (+1h) or a Unix time", "%s=%s: want +DURATION (+1h) or a Unix time", k, v)
			}
		case "jti":
			return nil, bad("jti is set by the generator (unique, pool=N)", "jti is set by the generator (unique, pool=N)")
		default:
			claims[k] = v
		}
	}
	if unique && pool != 1 {
		return nil, bad("unique and pool=N exclude each other", "unique and pool=N exclude each other")
	}
	if pool > b.tokens {
		return nil, bad(fmt.Sprintf("more than %d pooled tokens in all {jwt} fields together", MaxJWTTokens),
			"pool=%d: more than %d pooled tokens in all {jwt} fields together", pool, MaxJWTTokens)
	}
	b.tokens -= pool
	f.tokens = make([][]byte, 0, pool)
	if unique {
		f.tokens = nil
		claims["jti"] = "\x00"
	}
	for i := range pool {
		if pool > 1 {
			claims["jti"] = strconv.Itoa(i)
		}
		b, err := marshalSorted(claims)
		if err != nil {
			return nil, bad("the claims cannot be encoded", "%v", err)
		}
		if unique {
			pre, suf, _ := strings.Cut(string(b), `\u0000`)
			f.prefix, f.suffix = []byte(pre), []byte(suf)
			break
		}
		f.tokens = append(f.tokens, b) // claims JSON until bindJWT signs it
	}
	f.head = []byte(jwtHeader(f.alg, f.kid))
	return f, nil
}

func marshalSorted(m map[string]any) ([]byte, error) {
	var b []byte
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(m[k])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}

// bind signs the pool's tokens with s's secret (HS256) or private key
// (RS256) and keeps it for unique ones. A syntax-only s signs nothing.
func (f *jwtField) bind(s *signer) error {
	if s.syntaxOnly {
		return nil
	}
	fail := func(msg string) error {
		return &safeError{safe: "{jwt}: " + msg, full: fmt.Sprintf("field %s: %s", f.src, msg)}
	}
	if f.alg == "RS256" {
		switch {
		case s.rsaErr != nil:
			return fail(s.rsaErr.Error())
		case s.rsa == nil:
			return fail("no private key to sign RS256 with (set jwt_private_key in the experiment)")
		}
		f.rsa = s.rsa
	} else {
		if len(s.secret) == 0 {
			return fail("no JWT secret to sign with (set jwt_secret in the experiment)")
		}
		f.secret = s.secret
		f.macs.New = func() any { return &jwtScratch{mac: hmac.New(sha256.New, s.secret)} }
	}
	if f.rsa != nil {
		f.macs.New = func() any { return &jwtScratch{} }
	}
	for i, claims := range f.tokens {
		sc := f.macs.Get().(*jwtScratch)
		tok, err := f.sign(nil, claims, sc)
		f.macs.Put(sc)
		if err != nil {
			return fail(err.Error())
		}
		f.tokens[i] = tok
	}
	if f.tokens == nil { // unique: sign one now, so that a key that cannot sign fails here
		sc := f.macs.Get().(*jwtScratch)
		_, err := f.sign(nil, append(append(slices.Clip(f.prefix), '0'), f.suffix...), sc)
		f.macs.Put(sc)
		if err != nil {
			return fail(err.Error())
		}
	}
	return nil
}

// sign appends header.payload.signature for the claims JSON to dst.
func (f *jwtField) sign(dst, claims []byte, s *jwtScratch) ([]byte, error) {
	start := len(dst)
	dst = append(dst, f.head...)
	dst = base64.RawURLEncoding.AppendEncode(dst, claims)
	if f.rsa != nil {
		sig, err := signRS256(f.rsa, dst[start:])
		if err != nil {
			return dst[:start], fmt.Errorf("RS256 signing: %w", err)
		}
		s.sig = sig
	} else {
		s.mac.Reset()
		s.mac.Write(dst[start:])
		s.sig = s.mac.Sum(s.sig[:0])
	}
	dst = append(dst, '.')
	return base64.RawURLEncoding.AppendEncode(dst, s.sig), nil
}

// render appends the next token to d.
func (f *jwtField) render(d []byte) []byte {
	if f.tokens != nil {
		return append(d, f.tokens[(f.next.Add(1)-1)%uint64(len(f.tokens))]...)
	}
	s := f.macs.Get().(*jwtScratch)
	p := append(s.payload[:0], f.prefix...)
	p = strconv.AppendInt(p, f.seq.Add(1), 10)
	p = append(p, f.suffix...)
	s.payload = p
	d, _ = f.sign(d, p, s) // bind signed with this key already: RS256 cannot fail now
	f.macs.Put(s)
	return d
}
