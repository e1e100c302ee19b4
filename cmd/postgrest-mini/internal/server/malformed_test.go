package server

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestMalformed sends broken requests: every one gets a 4xx, none crashes
// the server, and afterwards no connection is leaked.
func TestMalformed(t *testing.T) {
	db := labtest.Chinook(t)
	ts := start(t, db.TCPURI("authenticator"), func(o *Options) { o.Pool = 3; o.MaxBodySize = 1 << 20 })
	huge := bytes.Repeat([]byte(`{"title":"x"},`), 200000)
	huge = append(append([]byte{'['}, huge[:len(huge)-1]...), ']')
	reqs := []struct {
		method, path string
		body         []byte
	}{
		{"GET", "/artist?select=*,", nil},
		{"GET", "/artist?select=(", nil},
		{"GET", "/artist?select=album(*", nil},
		{"GET", "/artist?select=album(*))", nil},
		{"GET", "/artist?select=a::", nil},
		{"GET", "/artist?select=a::int;drop%20table%20artist", nil},
		{"GET", "/artist?select=%22", nil},
		{"GET", "/artist?select=" + strings.Repeat("album(", 40) + strings.Repeat(")", 40), nil},
		{"GET", "/artist?select=%ff%fe", nil},
		{"GET", "/artist?name=eq.%ff%fe", nil},
		{"GET", "/artist?%ff=eq.1", nil},
		{"GET", "/artist?artist_id=in.(1,%222", nil},
		{"GET", "/artist?artist_id=in.1,2", nil},
		{"GET", "/artist?artist_id=is.maybe", nil},
		{"GET", "/artist?artist_id=fts.x", nil},
		{"GET", "/artist?artist_id=not.", nil},
		{"GET", "/artist?name=eq.%00", nil},
		{"GET", "/artist?order=", nil},
		{"GET", "/artist?limit=1e9", nil},
		{"GET", "/artist?offset=x", nil},
		{"GET", "/%ff%fe", nil},
		{"GET", "/artist%22;--", nil},
		{"GET", "/rpc/add_them?a=x&b=2&c=3&d=4&e=5", nil},
		{"GET", "/rpc/ret_artists?select=nope(*)", nil},
		{"POST", "/employee", []byte("\xff\xfe{}")},
		{"POST", "/employee", []byte(`{"title":"\ud800"}`)},
		{"POST", "/employee", []byte(`"just a string"`)},
		{"POST", "/employee", []byte(``)},
		{"POST", "/employee", []byte(`{"employee_id":"not a number"}`)},
		{"POST", "/employee?columns=nope", []byte(`{}`)},
		{"POST", "/employee?columns=a,,b", []byte(`{}`)},
		{"POST", "/rpc/add_them", []byte(`{"a":`)},
		{"DELETE", "/employee?employee_id=lt.x", nil},
	}
	for _, r := range reqs {
		st, b, _ := ts.do(t, r.method, r.path, r.body)
		if st < 400 || st > 499 {
			t.Errorf("%s %s: status %d, want 4xx: %s", r.method, trunc([]byte(r.path)), st, trunc(b))
		}
	}
	// a body over MaxBodySize: 413 as soon as the headers announce it
	hugeReq := "POST /employee HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(huge)) + "\r\n\r\n" + string(huge[:4096])
	// raw garbage on the socket
	for _, raw := range []string{hugeReq, "GARBAGE\r\n\r\n", "GET /artist HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n", "\x00\x01\x02\r\n\r\n"} {
		c, err := net.Dial("tcp", ts.Addr().String())
		must(t, err)
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		_, _ = c.Write([]byte(raw))
		buf := make([]byte, 512)
		n, _ := c.Read(buf)
		c.Close()
		if n > 0 && !bytes.HasPrefix(buf[:n], []byte("HTTP/1.1 4")) || raw == hugeReq && !bytes.HasPrefix(buf[:n], []byte("HTTP/1.1 413")) {
			t.Errorf("raw %q: answered %q", trunc([]byte(raw)), buf[:n])
		}
	}
	if st, b := ts.get(t, "/artist?artist_id=eq.3"); st != 200 || !bytes.Contains(b, []byte(`"artist_id":3,"name":`)) {
		t.Fatalf("server unusable after malformed requests: %d %s", st, b)
	}
	stat := ts.pool.Stat()
	if stat.AcquiredConns() != 0 || stat.TotalConns() > 3 || ts.pool.available() != 3 {
		t.Errorf("pool after malformed requests: %d acquired, %d open (max 3), %d slots free (want 3)", stat.AcquiredConns(), stat.TotalConns(), ts.pool.available())
	}
	var n int
	conn := superConn(t, db)
	must(t, conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'postgrest-mini' AND state <> 'idle'`, db.Name).Scan(&n))
	if n != 0 {
		t.Errorf("%d backends still busy (in a transaction?) after the requests", n)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
