package systemd_test

import (
	"os"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/systemd/internal/servicetest"
)

func TestMain(m *testing.M) { os.Exit(servicetest.Run(m)) }
