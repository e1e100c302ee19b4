package loadgen

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

const testSecret = "reallyreallyreallyreallyverysafe"

// bearer renders t once and returns the claims of its Authorization token,
// failing unless the HS256 signature verifies with secret.
func bearer(t *testing.T, tm *tmpl, secret string) (string, map[string]any) {
	t.Helper()
	var buf, sc []byte
	req := tm.render(&buf, &sc, nil)
	_, after, ok := bytes.Cut(req, []byte("Authorization: Bearer "))
	if !ok {
		t.Fatalf("no token in %q", req)
	}
	tok, _, _ := bytes.Cut(after, []byte("\r\n"))
	parts := strings.Split(string(tok), ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", tok)
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(parts[0] + "." + parts[1]))
	if got := base64.RawURLEncoding.EncodeToString(m.Sum(nil)); got != parts[2] {
		t.Fatalf("signature %s, want %s", parts[2], got)
	}
	var hdr, claims map[string]any
	h, _ := base64.RawURLEncoding.DecodeString(parts[0])
	p, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if json.Unmarshal(h, &hdr) != nil || hdr["alg"] != "HS256" || json.Unmarshal(p, &claims) != nil {
		t.Fatalf("header %s claims %s", h, p)
	}
	return string(tok), claims
}

func TestJWTField(t *testing.T) {
	compileJWT := func(field string) *tmpl {
		t.Helper()
		tm, err := compileWith(Request{Path: "/artist?artist_id=eq.{rand 1 9}", Header: map[string]string{"Authorization": "Bearer " + field, "X-After": "{seq 1}"}}, "h", "", []byte(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	exp := float64(time.Now().Add(time.Hour).Unix())
	one := compileJWT("{jwt role=web_user exp=+1h}")
	a, c := bearer(t, one, testSecret)
	if b, _ := bearer(t, one, testSecret); a != b || c["role"] != "web_user" || c["exp"].(float64) < exp-5 || c["exp"].(float64) > exp+5 || c["jti"] != nil {
		t.Errorf("fixed token: %s then %s, claims %v", a, b, c)
	}
	pool := compileJWT("{jwt role=web_user exp=+1h pool=3}")
	seen := map[string]bool{}
	for range 6 {
		tok, _ := bearer(t, pool, testSecret)
		seen[tok] = true
	}
	if len(seen) != 3 {
		t.Errorf("pool=3 sent %d distinct tokens in 6 requests, want 3", len(seen))
	}
	uniq := compileJWT("{jwt role=web_user exp=+1h unique}")
	seen = map[string]bool{}
	for i := range 50 {
		tok, c := bearer(t, uniq, testSecret)
		if seen[tok] || c["jti"] == nil || c["role"] != "web_user" {
			t.Fatalf("request %d: token %s repeated or claims %v", i, tok, c)
		}
		seen[tok] = true
	}
	var buf, sc []byte
	if got := string(uniq.render(&buf, &sc, nil)); !strings.Contains(got, "\r\nX-After: ") {
		t.Errorf("fields after the token lost: %q", got)
	}
	allocs := testing.AllocsPerRun(1000, func() { uniq.render(&buf, &sc, nil) })
	t.Logf("unique token: %.2f allocations per request", allocs)
	// Under -race sync.Pool drops the pooled HMACs on purpose: the budget
	// holds without it (BenchmarkJWTUnique: 0 allocations).
	if allocs > 0.05 && !raceEnabled {
		t.Errorf("signing a unique token allocates %.2f times per request", allocs)
	}
	if allocs := testing.AllocsPerRun(1000, func() { pool.render(&buf, &sc, nil) }); allocs != 0 {
		t.Errorf("a pool token allocates %.2f times per request", allocs)
	}
}

func TestJWTFieldErrors(t *testing.T) {
	for _, c := range []struct{ field, secret, want string }{
		{"{jwt role=a}", "", "no JWT secret"},
		{"{jwt role=a unique pool=2}", testSecret, "exclude each other"},
		{"{jwt role=a pool=0}", testSecret, "pool=0: want 1..100000"},
		{"{jwt exp=soon}", testSecret, "exp=soon: want +DURATION"},
		{"{jwt role}", testSecret, `"role" is not CLAIM=VALUE`},
		{"{jwt jti=1}", testSecret, "jti is set by the generator"},
	} {
		_, err := compileWith(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer " + c.field}}, "h", "", []byte(c.secret))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.field, err, c.want)
		}
	}
	if _, err := compileWith(Request{Path: "/", Header: map[string]string{"Content-Type": "{jwt role=a}"}}, "h", "", []byte(testSecret)); err == nil {
		t.Error("a template in Content-Type was accepted")
	}
}

// BenchmarkJWTUnique is the cost of signing a fresh token per request.
func BenchmarkJWTUnique(b *testing.B) {
	tm, err := compileWith(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer {jwt role=web_user exp=+1h unique}"}}, "h", "", []byte(testSecret))
	if err != nil {
		b.Fatal(err)
	}
	var buf, sc []byte
	b.ReportAllocs()
	for b.Loop() {
		tm.render(&buf, &sc, nil)
	}
}
