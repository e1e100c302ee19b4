package profile

import (
	"debug/elf"
	"os"
	"strings"
	"testing"

	"github.com/pgrst-lab/pgrst-lab/internal/labtest"
)

// The real PostgREST: a symbol's address (and a few bytes into it) names
// it, decoded; the unnamed code after a Haskell symbol's size is its
// module's; the table is cached per file.
func TestSymTableRealPostgREST(t *testing.T) {
	bin := labtest.PostgREST(t)
	tab, err := symbolsOf(bin)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := symbolsOf(bin); again != tab {
		t.Error("the table was read twice")
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	const escape = "postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info"
	var esc elf.Symbol
	for _, s := range syms {
		if s.Name == escape {
			esc = s
		}
	}
	if esc.Value == 0 || esc.Size < 8 {
		t.Fatalf("%s: no %s with a size (%+v)", bin, escape, esc)
	}
	for _, a := range []uint64{esc.Value, esc.Value + 4, esc.Value + esc.Size - 1} {
		if got, ok := tab.lookup(a); !ok || got != "PostgREST.Query.SqlFragment.$wescapeIdent" {
			t.Errorf("lookup(%#x) = %q, %v", a, got, ok)
		}
	}
	if got, ok := tab.lookup(0x1000); ok {
		t.Errorf("lookup below the code = %q", got)
	}
	// A Haskell symbol followed by code without a symbol: named after it, in its module.
	gaps := 0
	for i := 0; i+1 < len(tab.starts) && gaps < 1; i++ {
		if tab.ends[i] > tab.starts[i] && tab.starts[i+1] > tab.ends[i]+64 && strings.HasPrefix(tab.names[i], "PostgREST.") {
			mod, fn, _ := splitHaskell(tab.names[i])
			got, ok := tab.lookup(tab.ends[i] + 32)
			if want := mod + ".[code after " + fn + "]"; !ok || got != want {
				t.Errorf("lookup(%#x) after %s = %q, want %q", tab.ends[i]+32, tab.names[i], got, want)
			}
			t.Logf("%#x: %s", tab.ends[i]+32, got)
			gaps++
		}
	}
	if gaps == 0 {
		t.Error("no PostgREST symbol followed by unnamed code")
	}
	t.Logf("%s: %d code symbols", bin, len(tab.starts))
}

// Position-independent executables (perf prints their runtime addresses)
// and files that are not ELF are refused.
func TestSymTableRefuses(t *testing.T) {
	if _, err := loadSymTable("/bin/sh"); err == nil {
		if f, ferr := elf.Open("/bin/sh"); ferr == nil && f.Type == elf.ET_DYN {
			t.Error("/bin/sh is ET_DYN: no error")
		}
	}
	p := t.TempDir() + "/not-elf"
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := symbolsOf(p); err == nil {
		t.Error("a shell script: no error")
	}
	if _, err := symbolsOf(t.TempDir()); err == nil {
		t.Error("a directory: no error")
	}
}

func TestSplitHaskell(t *testing.T) {
	for name, want := range map[string]string{
		"PostgREST.Config.$wparseSecret": "PostgREST.Config|$wparseSecret",
		"GHC.Base..":                     "GHC.Base|.",
		"Data.Map.Internal.!":            "Data.Map.Internal|!",
		"evacuate1":                      "|",
		"github.com/x.F":                 "|",
		"PostgREST.":                     "|",
	} {
		mod, fn, _ := splitHaskell(name)
		if got := mod + "|" + fn; got != want {
			t.Errorf("splitHaskell(%q) = %q, want %q", name, got, want)
		}
	}
}

// An unresolved frame of a DSO the resolver knows takes its name; others
// are named after their file, as before.
func TestParseScriptResolves(t *testing.T) {
	const out = "1 \n\t  5b72fc [unknown] (/opt/pg-a)\n\t  5b7000 [unknown] (/opt/pg-a)\n\t  10 [unknown] (/usr/lib/libc.so.6)\n\n"
	resolve := func(dso string, addr uint64) (string, bool) {
		if dso != "/opt/pg-a" || addr < 0x5b7000 {
			return "", false
		}
		return "PostgREST.Config.[code after $wparseSecret]", true
	}
	p, err := parseScript(strings.NewReader(out), func(int) string { return "postgrest" }, resolve)
	if err != nil {
		t.Fatal(err)
	}
	want := "postgrest;[libc.so.6];PostgREST.Config.[code after $wparseSecret];PostgREST.Config.[code after $wparseSecret]"
	if len(p.Stacks) != 1 || strings.Join(p.Stacks[0].Frames, ";") != want {
		t.Errorf("stacks %+v, want %s", p.Stacks, want)
	}
}
