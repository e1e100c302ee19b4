package experiments

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// fakeKeys is a KeyValidator with a tiny catalogue (the real one is
// configs.ValidateSetting, wired in by the command line and tested there).
func fakeKeys(key, value string, allowUnknown bool) error {
	switch key {
	case "db-pool":
		if _, err := strconv.Atoi(value); err != nil {
			return fmt.Errorf("%q is not an integer", value)
		}
	case "log-level":
		if levels := []string{"crit", "error", "warn", "info", "debug"}; !slices.Contains(levels, value) {
			return fmt.Errorf("%q is not an allowed value (allowed: crit, error, warn, info, debug)", value)
		}
	case "db-prepared-statements", "server-timing-enabled":
		if value != "true" && value != "false" {
			return errors.New("not a boolean")
		}
	case "db-uri":
	default:
		if allowUnknown {
			return nil
		}
		return &UnknownKey{Key: key, Suggest: lab.Suggest(key, []string{"db-pool", "log-level", "db-uri", "db-prepared-statements", "server-timing-enabled"})}
	}
	return nil
}
