package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// lab track's command line errors say what is wrong before any store,
// stack or build is touched.
func TestTrackUsageErrors(t *testing.T) {
	r := labtest.NewGitRepo(t)
	t.Setenv("LAB_STORE", "")
	store := "postgres://nobody@127.0.0.1:1/none"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", store}, "--repo DIR"},
		{[]string{"--repo", r.Dir}, "no store"},
		{[]string{"--repo", r.Dir, "--store", store, "--tags", "--every", "3"}, "one of them"},
		{[]string{"--repo", r.Dir, "--store", store, "--max-p", "2"}, "--max-p 2"},
		{[]string{"--repo", r.Dir, "--store", store, "--branch", "nosuch"}, `--branch nosuch`},
		{[]string{"--repo", r.Dir, "--store", store, "--since", "nosuch"}, "--since"},
		{[]string{"--repo", r.Dir, "--store", store, "extra"}, "unexpected arguments"},
		{[]string{"--repo", r.Dir, "--store", store, "--alert-webhook", "hooks.example/T0/secret"}, "--alert-webhook: want an http:// or https:// URL"},
	} {
		_, err := runLab(t, append([]string{"track"}, tc.args...)...)
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("lab track %v: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}
