package reconcile

import (
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// TestMain stops the shared test cluster when the tests are done, and
// removes its data directory.
func TestMain(m *testing.M) { labtest.Main(m) }
