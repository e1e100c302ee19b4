package systemd

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Properties reads the unit's state and service properties in one call.
func (d *DBus) Properties(ctx context.Context, name string) (Props, error) {
	if err := ValidateUnitName(name); err != nil {
		return Props{}, err
	}
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	all, err := d.conn.GetAllPropertiesContext(ctx, name)
	if err != nil {
		return Props{}, fmt.Errorf("properties of %s: %w", name, err)
	}
	return propsFromMap(name, all), nil
}

func propsFromMap(name string, m map[string]any) Props {
	str := func(k string) string { s, _ := m[k].(string); return s }
	num := func(k string) int64 {
		switch v := m[k].(type) {
		case uint32:
			return int64(v)
		case int32:
			return int64(v)
		case uint64:
			return int64(v)
		case int64:
			return v
		}
		return 0
	}
	p := Props{
		Name:           name,
		LoadState:      str("LoadState"),
		ActiveState:    str("ActiveState"),
		SubState:       str("SubState"),
		Result:         str("Result"),
		MainPID:        int(num("MainPID")),
		ExecMainCode:   int(num("ExecMainCode")),
		ExecMainStatus: int(num("ExecMainStatus")),
		NRestarts:      int(num("NRestarts")),
		ControlGroup:   str("ControlGroup"),
	}
	if v, ok := m["MemoryCurrent"].(uint64); ok && v != ^uint64(0) {
		p.MemoryCurrent = v
	}
	return p
}

// LogTail reads the unit's LogFile (from StandardOutput=append: in its unit
// file) or, without one, asks journalctl.
func (d *DBus) LogTail(ctx context.Context, name string, n int) (string, error) {
	ctx, cancel := d.callCtx(ctx, 0)
	defer cancel()
	if f := logFileOf(d.unitPath(name)); f != "" {
		return TailFile(f, n)
	}
	return journalTail(ctx, !d.system, name, n)
}

// logFileOf finds "StandardOutput=append:PATH" (or file:PATH) in a unit file.
func logFileOf(unitFile string) string {
	b, err := os.ReadFile(unitFile)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "StandardOutput=")
		if !ok {
			continue
		}
		for _, p := range []string{"append:", "file:", "truncate:"} {
			if f, ok := strings.CutPrefix(v, p); ok {
				return strings.ReplaceAll(f, "%%", "%")
			}
		}
	}
	return ""
}
