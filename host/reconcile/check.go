package reconcile

import (
	"context"
	"fmt"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/systemd"
)

var _ lab.VariantChecker = (*Server)(nil)

// CheckVariants asks the supervisor, when it can tell
// (systemd.SettingsChecker: the direct supervisor), whether it can apply
// each variant's drop-in settings to the target and its CPUAffinity to
// PostgreSQL on this host; the error names the variant, the setting and
// the supervisor.
func (l *Server) CheckVariants(ctx context.Context, vs []lab.Variant) error {
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
