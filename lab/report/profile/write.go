package profile

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/lab"
	"github.com/pgrst-lab/pgrst-lab/lab/profiles"
	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
)

// Write writes, when the run has profiles, profile.json and per
// variant flame-<variant>.svg, profile-<variant>.pb.gz (pprof) and
// stacks-<variant>.folded (one "frame;frame;... count" line per stack, as
// flamegraph.pl and speedscope read it).
func Write(dir string, run *lab.Run) error {
	r := Of(run)
	if r.Empty() {
		return nil
	}
	var b bytes.Buffer
	if err := JSON(&b, r); err != nil {
		return fmt.Errorf("write profile.json: %w", err)
	}
	if err := format.WriteFile(filepath.Join(dir, "profile.json"), b.Bytes()); err != nil {
		return err
	}
	for _, v := range r.variants {
		name := fileName(v.Name)
		svg := FlameSVG(v.Stacks, flameTitle(v))
		if err := format.WriteFile(filepath.Join(dir, "flame-"+name+".svg"), svg); err != nil {
			return err
		}
		if err := format.WriteFile(filepath.Join(dir, "stacks-"+name+".folded"), Folded(v.Stacks)); err != nil {
			return err
		}
		var p bytes.Buffer
		if err := profiles.WritePprof(&p, v); err != nil {
			return fmt.Errorf("write profile-%s.pb.gz: %w", name, err)
		}
		if err := format.WriteFile(filepath.Join(dir, "profile-"+name+".pb.gz"), p.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func flameTitle(v profiles.Variant) string {
	return fmt.Sprintf("%s: CPU of the target and PostgreSQL, %d samples in %d trial(s)", v.Name, v.Samples, v.Trials)
}
