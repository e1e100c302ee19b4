package configs

import (
	"os"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

func TestMain(m *testing.M) {
	if os.Getenv("CONFIGS_HELPER") == "rewriter" {
		runRewriter() // child process of TestKillMidRewrite; never returns normally
		os.Exit(3)
	}
	labtest.Main(m)
}
