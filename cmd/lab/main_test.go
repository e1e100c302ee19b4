package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestHelpListsCommandsAndEveryCommandHasHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"help"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(out.String(), name) {
			t.Errorf("help does not list %q", name)
		}
		var o, e bytes.Buffer
		if err := run(context.Background(), []string{name, "-h"}, &o, &e); err != nil {
			t.Errorf("lab %s -h: %v", name, err)
		}
		if !strings.Contains(o.String(), "Usage: lab "+name) {
			t.Errorf("lab %s -h printed %q", name, o.String())
		}
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"frobnicate"}, &out, &errb)
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "frobnicate") {
		t.Fatalf("got %v (exit %d)", err, exitCode(err))
	}
}
