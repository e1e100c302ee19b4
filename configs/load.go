package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/interp"
	"github.com/pgrst-lab/pgrst-lab/lab/postgrest"
)

// maxImportDepth bounds import chains (and catches import cycles).
const maxImportDepth = 32

// Load computes the settings PostgREST would see when started with the
// config file at path and the environment environ ("NAME=value" entries):
// imports are followed (relative to the importing file), string values are
// interpolated ($(VAR) from earlier keys, then from environ), PGRST_* variables
// override the file for the keys PostgREST knows (and PGRST_APP_SETTINGS_x
// sets app.settings.x), and "@file" values of db-uri and jwt-secret are read
// from the file named. path may be "" to configure from the environment only.
//
// Every value is the resolved text: booleans "true"/"false", numbers in
// canonical form, lists joined with ",".
func Load(path string, environ []string) (Settings, error) {
	env := envMap(environ)
	l := &loader{env: env, vals: map[string]Value{}}
	if path != "" {
		if err := l.load(path, "", 0); err != nil {
			return nil, err
		}
	}
	s := Settings{}
	for _, k := range l.order {
		s[k] = l.vals[k].String()
	}
	applyEnvOverrides(s, env)
	if err := readAtFiles(s); err != nil {
		return nil, err
	}
	return s, nil
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

type loader struct {
	env   map[string]string
	vals  map[string]Value // resolved values (strings hold their resolved text)
	order []string
}

func (l *loader) load(path, prefix string, depth int) error {
	if depth > maxImportDepth {
		return fmt.Errorf("load %s: imports nested deeper than %d (an import cycle?)", path, maxImportDepth)
	}
	f, err := ParseFile(path)
	if err != nil {
		return err
	}
	for _, it := range f.items {
		if it.ignored {
			continue
		}
		if it.isImport {
			child := it.key
			if !filepath.IsAbs(child) {
				child = filepath.Join(filepath.Dir(path), child)
			}
			if err := l.load(child, prefix, depth+1); err != nil {
				return fmt.Errorf("%s: import %q: %w", path, it.key, err)
			}
			continue
		}
		v := it.val
		if v.kind == KindString {
			s, err := interp.Expand(v.text, func(name string) (string, error) { return l.lookup(it.group, name) })
			if err != nil {
				pe := (&parser{name: path, src: f.src}).errorAt(it.valStart, "key %s: %v", it.key, err)
				return pe
			}
			v = String(s)
		}
		if _, seen := l.vals[it.key]; !seen {
			l.order = append(l.order, it.key)
		}
		l.vals[it.key] = v
	}
	return nil
}

// lookup resolves $(name) inside a group ("" at top level): first keys
// already bound (in the group, then enclosing groups), then the environment.
func (l *loader) lookup(group, name string) (string, error) {
	parts := strings.Split(strings.TrimSuffix(group, "."), ".")
	if group == "" {
		parts = nil
	}
	for i := len(parts); i >= 0; i-- {
		full := strings.Join(append(append([]string(nil), parts[:i]...), name), ".")
		if v, ok := l.vals[full]; ok {
			switch v.kind {
			case KindString, KindNumber:
				return v.String(), nil
			default:
				return "", fmt.Errorf("variable %q is not a string or number", name)
			}
		}
	}
	if v, ok := l.env[name]; ok {
		return v, nil
	}
	return "", fmt.Errorf("no such variable: %q (not a key above nor in the environment)", name)
}

// applyEnvOverrides sets the keys PostgREST reads from PGRST_* variables.
func applyEnvOverrides(s Settings, env map[string]string) {
	for _, k := range postgrest.Keys() {
		if strings.HasSuffix(k.Name, "*") {
			continue
		}
		if v, ok := env[k.EnvName()]; ok {
			s[k.Name] = v
		}
	}
	for name, v := range env {
		if rest, ok := strings.CutPrefix(name, "PGRST_APP_SETTINGS_"); ok && rest != "" {
			s["app.settings."+rest] = v
		}
	}
}

// readAtFiles replaces "@path" values of db-uri (trimmed) and jwt-secret
// (one trailing newline dropped) with the file's contents, as PostgREST does.
func readAtFiles(s Settings) error {
	for _, key := range []string{"db-uri", "jwt-secret"} {
		v, ok := s[key]
		if !ok || !strings.HasPrefix(v, "@") {
			continue
		}
		b, err := os.ReadFile(v[1:])
		if err != nil {
			return fmt.Errorf("%s = %q: %w", key, v, err)
		}
		if key == "db-uri" {
			s[key] = strings.TrimSpace(string(b))
		} else {
			s[key] = strings.TrimSuffix(string(b), "\n")
		}
	}
	return nil
}
