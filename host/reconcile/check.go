package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

var _ lab.VariantChecker = (*Server)(nil)

// CheckVariants asks the supervisor, when it can tell
// (systemd.SettingsChecker: the direct supervisor), whether it can apply
// each variant's drop-in settings to the target and its CPUAffinity to
// PostgreSQL on this host; the error names the variant, the setting and
// the supervisor.
//
// First, each variant's PostgREST keys against the version of the binary
// it runs (its own, else the target's, from --version): a key that
// version lacks is an error naming the version that has it and its
// replacement (postgrest.VersionError), before anything changes.
func (l *Server) CheckVariants(ctx context.Context, vs []lab.Variant) error {
	if err := l.checkVersions(ctx, vs); err != nil {
		return err
	}
	c, ok := l.cfg.Ctl.(systemd.SettingsChecker)
	if !ok {
		return nil
	}
	for _, v := range vs {
		if len(v.DropIn) > 0 {
			if err := c.CheckSettings(ctx, l.cfg.TargetUnit, v.DropIn); err != nil {
				return fmt.Errorf("variant %q: dropin: %w", v.Name, err)
			}
		}
		if v.PGCPUAffinity != "" && l.cfg.PGUnit != "" {
			if err := c.CheckSettings(ctx, l.cfg.PGUnit, map[string]string{"CPUAffinity": v.PGCPUAffinity}); err != nil {
				return fmt.Errorf("variant %q: partition.postgresql: %w", v.Name, err)
			}
		}
	}
	return nil
}

// checkVersions checks the variants' PostgREST keys against the version of
// the binary each runs; a binary whose version the lab cannot read
// (postgrest-mini, a wrapper) is not checked.
func (l *Server) checkVersions(ctx context.Context, vs []lab.Variant) error {
	versions := map[string]string{}
	for _, v := range vs {
		bin := cmp.Or(v.Binary, l.cfg.Binary)
		if bin == "" {
			continue
		}
		ver, seen := versions[bin]
		if !seen {
			ver = postgrest.VersionOf(l.binaryVersion(ctx, bin))
			versions[bin] = ver
		}
		for _, k := range slices.Sorted(maps.Keys(v.PostgREST)) {
			if err := postgrest.CheckIn(k, ver); err != nil {
				return fmt.Errorf("variant %q: postgrest: %w", v.Name, err)
			}
		}
	}
	return nil
}
