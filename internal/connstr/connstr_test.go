package connstr

import (
	"slices"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:s3cret@h:5432/db":                       "postgres://u:redacted@h:5432/db",
		"postgres://authenticator:S3cr#tPW@127.0.0.1:5432/db": "postgres://authenticator:redacted@127.0.0.1:5432/db",
		"postgres://u:S3cr#tPW@/db?host=/run/pg&port=5432":    "postgres://u:redacted@/db?host=/run/pg&port=5432",
		"postgres://u:p%40ss%23w@h/db":                        "postgres://u:redacted@h/db",
		"postgres://u:p@h1,h2:5433/db":                        "postgres://u:redacted@h1,h2:5433/db",
		"postgres://u:pa?ss@h/db":                             "postgres://u:redacted@h/db",
		"postgres://u:p@ss@h/db":                              "postgres://redacted@h/db",
		"postgres://u:pa/ss@h/db":                             "postgres://redacted@h/db",
		"postgres://u@h/db":                                   "postgres://u@h/db",
		"postgres://h/db?sslmode=disable&password=s3cret&x=1": "postgres://h/db?sslmode=disable&password=redacted",
		"postgres://h/db?%70assword=s3cret":                   "postgres://h/db?%70assword=redacted",
		"postgres://h/db?sslpassword=s3cret":                  "postgres://h/db?sslpassword=redacted",
		"postgres://h/db?pass%zzword=s3cret":                  "postgres://h/db?pass%zzword=redacted",
		"postgres://h/db?password=a@b":                        "postgres://redacted@b",
		"POSTGRES://u:s3cret@h/db":                            "POSTGRES://u:redacted@h/db",
		"host=h user=u password=s3cret dbname=x":              "host=h user=u password=redacted dbname=x",
		"host=h password='se cret' dbname=x":                  "host=h password=redacted dbname=x",
		`host=h password='it\'s' dbname=x`:                    "host=h password=redacted dbname=x",
		"host=h password = s3cret dbname=x":                   "host=h password=redacted dbname=x",
		"host=h PASSWORD=s3cret":                              "host=h PASSWORD=redacted",
		"host=h password=se cret":                             Whole, // "cret" is no pair: unreadable
		"host=h password='unterminated":                       Whole,
		"u:s3cret@h":                                          Whole,
		"s3cret":                                              Whole,
		"":                                                    "",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitKV(t *testing.T) {
	ps, err := SplitKV(`host = h  password='a \'b\\' dbname=x\ y`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{"host", "h", "host = h"}, {"password", `a 'b\`, `password='a \'b\\'`}, {"dbname", "x y", `dbname=x\ y`}}
	if len(ps) != len(want) {
		t.Fatalf("%q", ps)
	}
	for i := range ps {
		if ps[i] != want[i] {
			t.Errorf("pair %d = %q, want %q", i, ps[i], want[i])
		}
	}
	for _, bad := range []string{"host", "=x", "password='s3cret", "password=se cret"} {
		if _, err := SplitKV(bad); err == nil {
			t.Errorf("SplitKV(%q) accepted", bad)
		} else if containsAny(err.Error(), "s3cret", "cret") {
			t.Errorf("SplitKV(%q): the error quotes the value: %v", bad, err)
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// Passwords finds each password as written and as libpq reads it, and
// every candidate where the string is ambiguous or cannot be split.
func TestPasswords(t *testing.T) {
	for in, want := range map[string][]string{
		"postgres://u:s3cret@h/db":                  {"s3cret"},
		"postgres://u:p%40ss@h/db":                  {"p%40ss", "p@ss"},
		"postgres://u:p@ss w0rd@h/db":               {"p", "p@ss w0rd"},
		"postgres://h/db?x=1&password=a%26b&y=2":    {"a%26b", "a&b", "a%26b&y=2"},
		"postgres://h/db?sslpassword=k3y":           {"k3y"},
		"postgres://u@h/db":                         nil,
		`host=h password='it\'s a secret' dbname=x`: {`it's a secret`, `'it\'s a secret'`},
		"host=h PASSWORD=s3cret":                    {"s3cret"},
		"host=h password=letmein please dbname=x":   {"letmein please", "letmein", "please"},
		"host=h password='open":                     {"'open", "open"},
		"just text":                                 nil,
	} {
		got := Passwords(in)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("Passwords(%q) = %q, lacks %q", in, got, w)
			}
		}
		if want == nil && len(got) > 0 {
			t.Errorf("Passwords(%q) = %q, want none", in, got)
		}
	}
}
