package trial

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

// Cleanup deletes after exactly the built-in scenarios the scenario table
// marks as inserting rows, and after no other.
func TestCleanupFollowsTheScenarioTable(t *testing.T) {
	var mu sync.Mutex
	var deletes int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if r.Method == http.MethodDelete {
			deletes++
		}
		mu.Unlock()
		w.Write([]byte("[]"))
	}))
	defer srv.Close()
	l := &Loader{Target: loadgen.Target{URL: srv.URL}}
	var inserting int
	for _, name := range loadgen.BuiltinNames() {
		sc, _ := loadgen.Builtin(name)
		if sc.Inserts {
			inserting++
		}
		mu.Lock()
		deletes = 0
		mu.Unlock()
		if err := l.Cleanup(context.Background(), lab.LoadSpec{Scenario: name}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mu.Lock()
		got := deletes
		mu.Unlock()
		if want := map[bool]int{true: 1, false: 0}[sc.Inserts]; got != want {
			t.Errorf("%s (inserts %v): %d deletes, want %d", name, sc.Inserts, got, want)
		}
	}
	if inserting == 0 {
		t.Error("no built-in scenario inserts rows")
	}
	// A custom scenario of the same name is not cleaned up after.
	if err := l.Cleanup(context.Background(), lab.LoadSpec{Scenario: "POSTSingle", Custom: &lab.Scenario{Name: "POSTSingle"}}); err != nil || deletes != 0 {
		t.Errorf("custom POSTSingle: %v, %d deletes", err, deletes)
	}
}
