package profiler

import (
	"debug/elf"
	"os"
	"strconv"
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
	// escapeIdent's worker: in PostgREST.Query.SqlFragment up to 13.x,
	// PostgREST.SchemaCache.Identifiers in 14.x; the package's version is
	// part of the symbol (postgrestzm13zi0zi8zminplace_...).
	var esc elf.Symbol
	want := ""
	for _, s := range syms {
		for _, mod := range []string{"PostgRESTziQueryziSqlFragment", "PostgRESTziSchemaCacheziIdentifiers"} {
			if strings.HasPrefix(s.Name, "postgrestzm") && strings.HasSuffix(s.Name, "zminplace_"+mod+"_zdwescapeIdent_info") {
				esc, want = s, strings.ReplaceAll(mod, "zi", ".")+".$wescapeIdent"
			}
		}
	}
	if esc.Value == 0 || esc.Size < 8 {
		t.Fatalf("%s: no escapeIdent worker with a size (%+v)", bin, esc)
	}
	for _, a := range []uint64{esc.Value, esc.Value + 4, esc.Value + esc.Size - 1} {
		if got, ok := tab.lookup(a); !ok || got != want {
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

// Files that are not ELF are refused.
func TestSymTableRefuses(t *testing.T) {
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

// fakeResolver names the addresses of one file from 0x5b7000 on, once
// perf has named a frame of it.
type fakeResolver struct{ seen []string }

func (f *fakeResolver) observe(dso string, addr uint64, sym string) {
	f.seen = append(f.seen, dso+" "+strconv.FormatUint(addr, 16)+" "+sym)
}

func (f *fakeResolver) resolve(dso string, addr uint64) (string, bool) {
	if dso != "/opt/pg-a" || addr < 0x5b7000 || len(f.seen) == 0 {
		return "", false
	}
	return "PostgREST.Config.[code after $wparseSecret]", true
}

// An unresolved frame of a file is named by the resolver, after all the
// frames perf named were seen (here the last one); others are named after
// their file, as before, a run of them one frame.
func TestParseScriptResolves(t *testing.T) {
	const out = "1 \n\t  5b72fc [unknown] (/opt/pg-a)\n\t  5b7000 [unknown] (/opt/pg-a)\n\t  10 [unknown] (/usr/lib/libc.so.6)\n" +
		"\t  11 [unknown] (/opt/pg-a)\n\t  12 [unknown] (/opt/pg-a)\n\n" +
		"1 \n\t  812a88 postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info (/opt/pg-a)\n\t  13 [unknown] (/opt/pg-a)\n\n"
	res := &fakeResolver{}
	p, err := parseScript(strings.NewReader(out), func(int) string { return "postgrest" }, res)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.Stacks {
		got = append(got, strings.Join(s.Frames, ";"))
	}
	want := []string{
		"postgrest;[pg-a];PostgREST.Query.SqlFragment.$wescapeIdent",
		"postgrest;[pg-a];[libc.so.6];PostgREST.Config.[code after $wparseSecret];PostgREST.Config.[code after $wparseSecret]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stacks\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.seen) != 1 || res.seen[0] != "/opt/pg-a 812a88 postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info" {
		t.Errorf("observed %q", res.seen)
	}
}

// The real PostgREST: perf's addresses are read as file offsets or as
// addresses, as the frames perf named say; without evidence, or with
// evidence for neither, nothing is resolved.
func TestExeResolverRealPostgREST(t *testing.T) {
	bin := labtest.PostgREST(t)
	tab, err := symbolsOf(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.segs) == 0 {
		t.Fatal("no executable segment")
	}
	offsetOf := func(a uint64) uint64 {
		for _, p := range tab.segs {
			if a >= p.Vaddr && a-p.Vaddr < p.Filesz {
				return a - p.Vaddr + p.Off
			}
		}
		t.Fatalf("%#x in no segment", a)
		return 0
	}
	// Symbols with a size, spread over the table: the evidence; the last
	// one's inside is what is looked up.
	var known []int
	for i := 0; i < len(tab.starts) && len(known) < 20; i += len(tab.starts) / 20 {
		for j := i; j < len(tab.starts); j++ {
			if tab.ends[j] > tab.starts[j]+8 {
				known = append(known, j)
				break
			}
		}
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw := map[string]string{} // decoded -> symbol
	syms, _ := f.Symbols()
	for _, s := range syms {
		raw[truncate(DecodeGHC(s.Name))] = s.Name
	}
	target := known[len(known)-1]
	for _, asOffset := range []bool{true, false} {
		r := &exeResolver{exes: map[string]bool{bin: true}, tables: map[string]*symTable{}, evidence: map[string]*addrEvidence{}}
		conv := func(a uint64) uint64 {
			if asOffset {
				return offsetOf(a)
			}
			return a
		}
		if _, ok := r.resolve(bin, conv(tab.starts[target]+4)); ok {
			t.Errorf("offset %v: resolved without evidence", asOffset)
		}
		for _, i := range known {
			r.observe(bin, conv(tab.starts[i]+1), raw[tab.names[i]])
		}
		got, ok := r.resolve(bin, conv(tab.starts[target]+4))
		if !ok || got != tab.names[target] {
			t.Errorf("offset %v: resolve = %q, %v; want %s (evidence %+v)", asOffset, got, ok, tab.names[target], *r.evidence[bin])
		}
		if _, ok := r.resolve("/usr/lib/libc.so.6", 0x1000); ok {
			t.Error("resolved a file that is not tracked")
		}
	}
	// Evidence against both readings: perf's names are not the table's.
	r := &exeResolver{exes: map[string]bool{bin: true}, tables: map[string]*symTable{}, evidence: map[string]*addrEvidence{}}
	for _, i := range known {
		r.observe(bin, tab.starts[i]+1, "someone_else")
	}
	if got, ok := r.resolve(bin, tab.starts[target]+4); ok {
		t.Errorf("resolved %q against the evidence %+v", got, *r.evidence[bin])
	}
}
