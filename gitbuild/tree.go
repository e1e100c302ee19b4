package gitbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/pgrst-lab/pgrst-lab/internal/runas"
)

// export makes the commit's tree afresh in src: `git archive` of sha (run
// by the lab on its own repository) unpacked by tar as user into a
// directory user owns, so that the build can write there and root never
// writes into anything the build made. What was there (an earlier,
// failed build's tree) is removed first; os.RemoveAll follows no link.
func (b commitDir) export(ctx context.Context, repo, sha string, user runas.Account) error {
	src := b.src()
	if err := os.RemoveAll(src); err != nil {
		return fmt.Errorf("remove the old tree %s: %w", src, err)
	}
	if err := os.Mkdir(src, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("tree %s: %w", src, err)
	}
	if !user.Self() {
		if err := os.Lchown(src, user.UID, user.GID); err != nil {
			return fmt.Errorf("tree %s: %w", src, err)
		}
	}
	archive := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", sha)
	unpack := exec.CommandContext(ctx, "tar", "-x", "-f", "-", "--no-same-owner", "--no-same-permissions")
	unpack.Dir = src
	unpack.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	unpack.SysProcAttr = &syscall.SysProcAttr{Credential: user.Credential()}
	var archiveErr, unpackErr bytes.Buffer
	archive.Stderr, unpack.Stderr = &archiveErr, &unpackErr
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	unpack.Stdin = pipe
	if err := archive.Start(); err != nil {
		return fmt.Errorf("git archive %s: %w", short(sha), err)
	}
	if err := runas.StartConfined(unpack); err != nil {
		archive.Process.Kill()
		archive.Wait()
		return fmt.Errorf("tar as %s: %w", user.Name, err)
	}
	aerr := archive.Wait()
	uerr := unpack.Wait()
	if aerr != nil {
		return fmt.Errorf("git archive %s: %w: %s", short(sha), aerr, strings.TrimSpace(archiveErr.String()))
	}
	if uerr != nil {
		return fmt.Errorf("unpack %s into %s as %s: %w: %s", short(sha), src, user.Name, uerr, strings.TrimSpace(unpackErr.String()))
	}
	return nil
}
