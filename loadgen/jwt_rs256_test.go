package loadgen

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// testRSAKey makes a 2048-bit key and returns it with its PEM (PKCS #8).
func testRSAKey(t *testing.T) (*rsa.PrivateKey, []byte) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// rsaJWK is the public key as a JWK (kid "" leaves it out).
func rsaJWK(k *rsa.PrivateKey, kid string) map[string]string {
	m := map[string]string{"kty": "RSA", "alg": "RS256",
		"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())}
	if kid != "" {
		m["kid"] = kid
	}
	return m
}

// token renders tm once and returns its Authorization token.
func token(t *testing.T, tm *tmpl) string {
	t.Helper()
	var buf, sc []byte
	req := tm.render(&buf, &sc, nil)
	_, after, ok := bytes.Cut(req, []byte("Authorization: Bearer "))
	if !ok {
		t.Fatalf("no token in %q", req)
	}
	tok, _, _ := bytes.Cut(after, []byte("\r\n"))
	return string(tok)
}

// RS256 fields sign with the private key: the public key verifies every
// token (reused and unique), the header names the key id, and a field
// without a key, or with a key that is no RSA key, is refused.
func TestJWTRS256Field(t *testing.T) {
	k, pemKey := testRSAKey(t)
	keys := newSigner("", pemKey)
	for _, field := range []string{"{jwt role=web_user exp=+1h alg=RS256 kid=k1}", "{jwt role=web_user exp=+1h alg=RS256 kid=k1 unique}", "{jwt role=web_user exp=+1h alg=RS256 kid=k1 pool=3}"} {
		tm, err := compileBudget(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer " + field}}, "h", "", keys, newBudget())
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		seen := map[string]bool{}
		for range 3 {
			tok := token(t, tm)
			seen[tok] = true
			p, err := jwt.Parse(tok, func(tk *jwt.Token) (any, error) {
				if tk.Header["kid"] != "k1" {
					return nil, fmt.Errorf("kid %v", tk.Header["kid"])
				}
				return &k.PublicKey, nil
			}, jwt.WithValidMethods([]string{"RS256"}))
			if err != nil || p.Claims.(jwt.MapClaims)["role"] != "web_user" {
				t.Fatalf("%s: token %s: %v", field, tok, err)
			}
		}
		if want := map[bool]int{true: 1, false: 3}[!strings.Contains(field, "unique") && !strings.Contains(field, "pool")]; len(seen) != want {
			t.Errorf("%s: %d distinct tokens in 3, want %d", field, len(seen), want)
		}
	}
	for _, c := range []struct {
		keys *signer
		want string
	}{
		{newSigner(testSecret, nil), "no private key to sign RS256 with"},
		{newSigner("", []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")), "no PEM RSA private key"},
	} {
		_, err := compileBudget(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer {jwt role=a alg=RS256}"}}, "h", "", c.keys, newBudget())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if _, err := compileBudget(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer {jwt role=a alg=ES256}"}}, "h", "", keys, newBudget()); err == nil || !strings.Contains(err.Error(), "HS256 or RS256") {
		t.Errorf("alg=ES256: %v", err)
	}
}

// The real PostgREST accepts the RS256 tokens with its jwt-secret a JWK
// and a JWKS (one that also holds an HS256 key, which verifies HS256
// tokens too): the token's role gets its rights (200 on the table it may
// read, 403 on one it may not), and a token whose payload was changed
// after signing is refused with 401.
func TestJWTRS256OnRealPostgREST(t *testing.T) {
	db := labtest.Chinook(t)
	if err := db.Psql(db.Name, `CREATE ROLE jwt_reader NOLOGIN; GRANT jwt_reader TO authenticator;
		GRANT USAGE ON SCHEMA public TO jwt_reader; GRANT SELECT ON artist TO jwt_reader;`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Psql("postgres", "DROP OWNED BY jwt_reader; DROP ROLE IF EXISTS jwt_reader") })
	k, pemKey := testRSAKey(t)
	jwkJSON, _ := json.Marshal(rsaJWK(k, ""))
	jwksJSON, _ := json.Marshal(map[string]any{"keys": []any{
		map[string]string{"kty": "oct", "alg": "HS256", "kid": "hs", "k": base64.RawURLEncoding.EncodeToString([]byte(testSecret))},
		rsaJWK(k, "rs")}})
	keys := newSigner(testSecret, pemKey)
	for _, c := range []struct {
		name, secret string
		fields       []string
	}{
		{"JWK", string(jwkJSON), []string{"{jwt role=jwt_reader exp=+1h alg=RS256}", "{jwt role=jwt_reader exp=+1h alg=RS256 unique}"}},
		{"JWKS", string(jwksJSON), []string{"{jwt role=jwt_reader exp=+1h alg=RS256 kid=rs}", "{jwt role=jwt_reader exp=+1h alg=RS256 kid=rs unique}", "{jwt role=jwt_reader exp=+1h kid=hs}"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			labtest.EachPostgREST(t, func(t *testing.T, real labtest.Real) {
				rs256On(t, servePostgRESTOf(t, real.Path, db, fmt.Sprintf("jwt-secret = %q\n", c.secret)), keys, c.fields)
			})
		})
	}
}

// rs256On checks tokens of each field against the PostgREST at url: 200
// on a table the role reads, 403 on one it does not, 401 tampered.
func rs256On(t *testing.T, url string, keys *signer, fields []string) {
	t.Helper()
	get := func(path, tok string) int {
		req, _ := http.NewRequest("GET", url+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, f := range fields {
		tm, err := compileBudget(Request{Path: "/", Header: map[string]string{"Authorization": "Bearer " + f}}, "h", "", keys, newBudget())
		if err != nil {
			t.Fatal(err)
		}
		tok := token(t, tm)
		if got := get("/artist?limit=1", tok); got != 200 {
			t.Errorf("%s: /artist: %d, want 200", f, got)
		}
		if got := get("/album?limit=1", tok); got != 403 {
			t.Errorf("%s: /album (no grant): %d, want 403", f, got)
		}
		parts := strings.Split(tok, ".")
		claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
		forged := strings.Replace(string(claims), "jwt_reader", "web_anon__", 1)
		parts[1] = base64.RawURLEncoding.EncodeToString([]byte(forged))
		if got := get("/artist?limit=1", strings.Join(parts, ".")); got != 401 {
			t.Errorf("%s: tampered token %s: %d, want 401", f, forged, got)
		}
	}
}
