package experiments

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Bounds on the files an experiment reads. The limits on what a targets
// file and a body file hold are the load generator's (loadgen's
// MaxTargetsFileSize and MaxBodyFileSize; a test keeps them equal).
const (
	MaxFileSize        = 1 << 20  // the experiment file itself
	MaxTargetsFileSize = 1 << 20  // targets
	MaxBodyFileSize    = 16 << 20 // a [[scenario]]'s body_file
	MaxKeyFileSize     = 64 << 10 // jwt_private_key (a PEM RSA key of 16384 bits is 13 KB)
)

// files resolves the files the experiment names (targets, each
// [[scenario]]'s body_file, jwt_private_key) against the experiment file's directory and
// refuses any other place: an absolute path, a path with "..", and, with
// onDisk, a symbolic link leading out, a file that is not regular (a FIFO,
// /dev/zero) or one over its bound. A hostile experiment file can then make
// the lab read nothing outside its own directory. With onDisk the paths
// kept are the resolved ones (no symbolic links), which the run opens
// without following links (loadgen.ReadFileBounded): a file swapped for a
// link after this check is refused, not read.
// Errors are at the key's line and quote only the path the file gives.
func (p *parse) files(e *lab.Experiment, onDisk bool) {
	dir := filepath.Dir(p.file)
	for i := range e.Custom {
		s := &e.Custom[i]
		if s.BodyFile == "" {
			continue
		}
		at := []string{fmt.Sprintf("scenario[%d]", i), "body_file"}
		path, err := p.resolve(dir, s.BodyFile, MaxBodyFileSize, onDisk)
		if err != nil {
			p.add(at, at, err)
			continue
		}
		s.BodyFile = path
	}
	if e.JWTPrivateKey != "" {
		resolve := p.resolve
		if p.bundled {
			resolve = func(_, name string, _ int64, _ bool) (string, error) {
				return bundledFile(name, "jwt_private_key", ".pem")
			}
		}
		path, err := resolve(dir, e.JWTPrivateKey, MaxKeyFileSize, onDisk)
		if err != nil {
			p.add([]string{"jwt_private_key"}, []string{"jwt_private_key"}, err)
			e.JWTPrivateKey = ""
		} else {
			e.JWTPrivateKey = path
		}
	}
	if e.Targets == "" {
		return
	}
	resolve := p.resolve
	if p.bundled {
		resolve = func(_, name string, _ int64, _ bool) (string, error) { return bundledTargets(name) }
	}
	path, err := resolve(dir, e.Targets, MaxTargetsFileSize, onDisk)
	if err != nil {
		p.add([]string{"targets"}, []string{"targets"}, err)
		e.Targets = ""
		return
	}
	e.UseTargets(path, false)
}

// resolve checks one named file (see files) and returns its path.
func (p *parse) resolve(dir, name string, limit int64, onDisk bool) (string, error) {
	where := dir
	if abs, err := filepath.Abs(dir); err == nil {
		where = abs
	}
	if filepath.IsAbs(name) || !filepath.IsLocal(name) {
		return "", fmt.Errorf("%q must be a path relative to the experiment file and inside the experiment file's directory (%s)", name, where)
	}
	path := filepath.Join(dir, name)
	if !onDisk {
		return path, nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("%q: %w", name, err)
	}
	full, err := filepath.EvalSymlinks(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%q cannot be read: %w", name, err)
	}
	if rel, err := filepath.Rel(root, full); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%q leads out of the experiment file's directory (%s) through a symbolic link: the file must be inside the experiment file's directory", name, where)
	}
	fi, err := os.Stat(full)
	if err != nil {
		return "", fmt.Errorf("%q cannot be read: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%q is not a regular file", name)
	}
	if fi.Size() > limit {
		return "", fmt.Errorf("%q is larger than %d bytes", name, limit)
	}
	return full, nil
}

// readRegular reads a regular file of at most limit bytes, refusing a FIFO
// or a device without blocking.
func readRegular(path string, limit int64) ([]byte, error) { return safefile.ReadBounded(path, limit) }
