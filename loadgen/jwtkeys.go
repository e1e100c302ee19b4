package loadgen

import (
	"crypto/rsa"
	"fmt"

	"github.com/golang-jwt/jwt/v5"
)

// signer holds what {jwt} fields sign with: the HS256 secret (Config's
// JWTSecret) and the RS256 private key (Config's JWTPrivateKey, PEM). A
// syntax-only signer (a targets file read before its run) signs nothing.
type signer struct {
	secret     []byte
	rsa        *rsa.PrivateKey
	rsaErr     error // why JWTPrivateKey was no RSA private key
	syntaxOnly bool
}

// newSigner parses the PEM key (PKCS #1 or PKCS #8) when there is one; a
// bad key is an error only for an RS256 field (bind says so).
func newSigner(secret string, privateKeyPEM []byte) *signer {
	s := &signer{secret: []byte(secret)}
	if len(privateKeyPEM) > 0 {
		if s.rsa, s.rsaErr = jwt.ParseRSAPrivateKeyFromPEM(privateKeyPEM); s.rsaErr != nil {
			s.rsaErr = fmt.Errorf("the RS256 private key is no PEM RSA private key (PKCS #1 or #8): %w", s.rsaErr)
		}
	}
	return s
}

// syntaxSigner checks {jwt} fields without keys.
func syntaxSigner() *signer { return &signer{syntaxOnly: true} }

// signRS256 returns the RS256 signature of header.payload.
func signRS256(key *rsa.PrivateKey, signing []byte) ([]byte, error) {
	return jwt.SigningMethodRS256.Sign(string(signing), key)
}

// MaxJWTKeyFileSize bounds a PEM private key file (experiments'
// MaxKeyFileSize, the same).
const MaxJWTKeyFileSize = 64 << 10

// ReadJWTPrivateKey reads the PEM file that signs {jwt alg=RS256} fields
// ("" reads nothing), bounded and without following links.
func ReadJWTPrivateKey(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := ReadFileBounded(path, MaxJWTKeyFileSize)
	if err != nil {
		return nil, fmt.Errorf("jwt_private_key %s: %w", path, err)
	}
	return b, nil
}
