package stack

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
	"github.com/pgrst-lab/pgrst-lab/internal/pgbin"
)

// stateDir is a fresh state dir PostgreSQL can enter.
func stateDir(t *testing.T) string { return labtest.StateDir(t) }

func needPostgres(t *testing.T) {
	t.Helper()
	if _, err := pgbin.Find(""); err != nil {
		labtest.Need(t, "%v", err)
	}
}

// up brings a stack up and registers Down(purge) as cleanup.
func up(t *testing.T, o Options) *Stack {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	s, err := Up(ctx, o)
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	t.Logf("up in %v", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if s, err := Open(o.Dir); err == nil {
			if err := s.Down(context.Background(), true); err != nil {
				t.Errorf("cleanup down: %v", err)
			}
			s.Close()
		}
	})
	return s
}

func query(t *testing.T, uri string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, uri)
	if err != nil {
		t.Fatalf("connect %s: %v", uri, err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("query via %s: %d %v", uri, n, err)
	}
}

func httpStatus(t *testing.T, url string) int {
	t.Helper()
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// alive reports whether pid runs (and is not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && len(s) > i+2 && s[i+2] != 'Z' && s[i+2] != 'X'
}

func itoa(n int) string { return strconv.Itoa(n) }

func oneLine(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", wants)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not mention %q", msg, w)
		}
	}
}
