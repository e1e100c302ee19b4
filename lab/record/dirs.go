package record

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dirs are the result directories in or under root: root itself when it
// holds a run.json, else every directory below it that does (a results
// tree, an experiment's directory, a matrix directory), in lexical order.
// Hidden directories (a result being written) are skipped. A root that
// cannot be read is err; a directory below it that cannot be read is left
// out and reported in unread.
func Dirs(root string) (dirs []string, unread []error, err error) {
	if _, err := os.Stat(filepath.Join(root, File)); err == nil {
		return []string{root}, nil, nil
	}
	if _, err := os.Stat(root); err != nil {
		return nil, nil, err
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			unread = append(unread, err)
			return nil
		}
		if d.IsDir() && p != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && d.Name() == File {
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return dirs, unread, nil
}
