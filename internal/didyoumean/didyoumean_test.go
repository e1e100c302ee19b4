package didyoumean

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"db-pool", "db-pool-acquisition-timeout", "log-level", "db-uri", "model", "synchronous_commit", "GETSingle"}
	for _, c := range []struct{ in, want string }{
		{"db-pol", "db-pool"},
		{"DB_POOL", "db-pool"},
		{"modle", "model"},
		{"getsingle", "GETSingle"},
		{"db-pool-acquisiton-timeout", "db-pool-acquisition-timeout"},
		{"synchronous-commit", "synchronous_commit"},
		{"loglevel", "log-level"},
		{"shared_buffers", ""},
		{"x", ""},
		{"", ""},
	} {
		if got := Suggest(c.in, known); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Suggest("db-pool", nil); got != "" {
		t.Errorf("no candidates: %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"ü", "u", 1}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
