package loadgen

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// childServerEnv makes the test binary a server (TestMain): timing tests
// run the generator against a server that does not share its Go runtime
// (an in-process server's goroutines wait for a P the event loop holds).
const childServerEnv = "LOADGEN_CHILD_SERVER"

// TestMain runs the tests, or with childServerEnv set the child server.
func TestMain(m *testing.M) {
	if os.Getenv(childServerEnv) != "" {
		serveChild()
		return
	}
	labtest.Main(m) // stops the PostgreSQL cluster the fixture tests start
}

// serveChild answers okHandler's way on a free loopback port, which it
// prints, until its standard input closes (the parent ended).
func serveChild() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	http.Serve(ln, http.HandlerFunc(okHandler))
}

// childServer starts the test binary as a server in its own process and
// returns its URL; it stops with the test.
func childServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childServerEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("child server: %v", err)
	}
	return "http://" + strings.TrimSpace(line)
}
