//go:build !linux

package runas

import "os/exec"

// StartConfined starts cmd; only Linux has no_new_privs and capability
// bounding sets to set.
func StartConfined(cmd *exec.Cmd) error { return cmd.Start() }
