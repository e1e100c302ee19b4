package profiler

import (
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// symTable is the code symbols of one executable, by address, for what
// perf leaves unresolved in GHC programs: a module's internal closures
// have no symbol of their own (their code follows an exported symbol,
// past that symbol's size), so perf prints their samples as bare
// addresses.
type symTable struct {
	starts []uint64         // sorted
	ends   []uint64         // start+size (start when the size is 0)
	names  []string         // decoded
	after  []string         // the name of the code past a symbol's size (afterName), or ""
	segs   []elf.ProgHeader // the executable PT_LOAD segments
}

// Bounds on what a symbol table may cost to load: the executable is a
// variant's, which may be hostile. PostgREST 13's .symtab is 3 MB.
const (
	maxSymtabBytes = 64 << 20
	maxSymbols     = 2 << 20

	maxCachedTables = 4
)

// loadSymTable reads the symbols of the executable sections of an ELF
// file, and its executable segments (to turn file offsets into
// addresses).
func loadSymTable(path string) (*symTable, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return nil, fmt.Errorf("%s: ELF type %v", path, f.Type)
	}
	sec := f.Section(".symtab")
	if sec == nil {
		return nil, fmt.Errorf("%s: no symbol table", path)
	}
	if sec.Size > maxSymtabBytes {
		return nil, fmt.Errorf("%s: symbol table of %d bytes", path, sec.Size)
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	if len(syms) > maxSymbols {
		return nil, fmt.Errorf("%s: %d symbols", path, len(syms))
	}
	type sym struct {
		start, end uint64
		name       string
	}
	code := make([]sym, 0, len(syms)/2)
	for _, s := range syms {
		i := int(s.Section)
		if s.Section >= elf.SHN_LORESERVE || i <= 0 || i >= len(f.Sections) || f.Sections[i].Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		switch elf.ST_TYPE(s.Info) {
		case elf.STT_FUNC, elf.STT_OBJECT, elf.STT_NOTYPE:
		default:
			continue
		}
		if s.Name == "" || strings.HasPrefix(s.Name, ".L") || s.Value == 0 {
			continue
		}
		code = append(code, sym{s.Value, s.Value + s.Size, s.Name})
	}
	// By address; at one address the symbol with a size, then by name,
	// so that the choice does not depend on the file's order.
	slices.SortFunc(code, func(a, b sym) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if c := cmp.Compare(b.end, a.end); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	code = slices.CompactFunc(code, func(a, b sym) bool { return a.start == b.start })
	t := &symTable{starts: make([]uint64, len(code)), ends: make([]uint64, len(code)), names: make([]string, len(code))}
	for i, s := range code {
		t.starts[i], t.ends[i], t.names[i] = s.start, s.end, truncate(DecodeGHC(s.name))
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			t.segs = append(t.segs, p.ProgHeader)
		}
	}
	// Named once here, not per sample: a profile looks up tens of thousands of frames.
	t.after = make([]string, len(code))
	for i := range code {
		if t.ends[i] > t.starts[i] && (i+1 == len(code) || t.starts[i+1] > t.ends[i]) {
			t.after[i] = afterName(t.names[i])
		}
	}
	return t, nil
}

// lookup names the code at addr after the nearest symbol at or before it:
// that symbol's decoded name when addr is within its size (or it has
// none), otherwise "<module>.[code after <name>]" for a Haskell name (the
// unnamed code that follows a GHC symbol is its module's: GHC compiles a
// module to one object file, which the linker keeps together), and
// "[code after <name>]" for others.
func (t *symTable) lookup(addr uint64) (string, bool) {
	i, found := slices.BinarySearch(t.starts, addr)
	if !found {
		i--
	}
	if i < 0 {
		return "", false
	}
	if addr < t.ends[i] || t.ends[i] == t.starts[i] {
		return t.names[i], true
	}
	if t.after[i] != "" {
		return t.after[i], true
	}
	return afterName(t.names[i]), true
}

// afterName names the unnamed code after a symbol (see lookup).
func afterName(name string) string {
	if mod, fn, ok := splitHaskell(name); ok {
		return mod + ".[code after " + fn + "]"
	}
	return "[code after " + name + "]"
}

// addrOfOffset is the address of the byte at a file offset, in an
// executable segment.
func (t *symTable) addrOfOffset(off uint64) (uint64, bool) {
	for _, p := range t.segs {
		if off >= p.Off && off-p.Off < p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

// exeResolver names unresolved frames of the tracked executables. Which
// addresses perf prints depends on perf and the file: perf 6.1 prints a
// call chain's user-space addresses as offsets into the file (the map's
// start subtracted, its file offset added: PostgREST's 0x5b72fc is the
// code at 0x9b72fc), other versions may print the addresses themselves.
// The frames perf named decide: the reading under which the symbol table
// names most of them as perf did is taken, when it names at least half;
// without such evidence nothing is resolved.
type exeResolver struct {
	exes     map[string]bool
	tables   map[string]*symTable // nil: unreadable
	evidence map[string]*addrEvidence
}

// addrEvidence counts the frames perf named that the table names alike,
// reading the address as a file offset and as an address.
type addrEvidence struct{ seen, asOffset, asAddr int }

// maxEvidence bounds the frames checked per file.
const maxEvidence = 1000

func (r *exeResolver) table(dso string) *symTable {
	if !r.exes[dso] {
		return nil
	}
	t, ok := r.tables[dso]
	if !ok {
		t, _ = symbolsOf(dso) // nil when unreadable: named after the file, as before
		r.tables[dso] = t
	}
	return t
}

func (r *exeResolver) observe(dso string, addr uint64, sym string) {
	t := r.table(dso)
	if t == nil {
		return
	}
	e := r.evidence[dso]
	if e == nil {
		e = &addrEvidence{}
		r.evidence[dso] = e
	}
	if e.seen >= maxEvidence {
		return
	}
	e.seen++
	want := truncate(DecodeGHC(sym))
	if a, ok := t.addrOfOffset(addr); ok {
		if got, _ := t.lookup(a); got == want {
			e.asOffset++
		}
	}
	if got, _ := t.lookup(addr); got == want {
		e.asAddr++
	}
}

func (r *exeResolver) resolve(dso string, addr uint64) (string, bool) {
	t, e := r.table(dso), r.evidence[dso]
	if t == nil || e == nil {
		return "", false
	}
	switch {
	case e.asOffset > e.asAddr && 2*e.asOffset >= e.seen:
		a, ok := t.addrOfOffset(addr)
		if !ok {
			return "", false
		}
		return t.lookup(a)
	case e.asAddr > e.asOffset && 2*e.asAddr >= e.seen:
		return t.lookup(addr)
	}
	return "", false
}

// splitHaskell splits a decoded GHC name into module and function
// ("PostgREST.Config" and "$wparseSecret"): the leading components that
// start with a capital letter are the module, as in lab/profiles.ModuleOf.
func splitHaskell(name string) (mod, fn string, ok bool) {
	n := 0
	for i := 0; i < len(name); {
		j := strings.IndexByte(name[i:], '.')
		if j <= 0 || name[i] < 'A' || name[i] > 'Z' {
			break
		}
		if !moduleName.MatchString(name[i : i+j]) {
			break
		}
		n = i + j
		i = n + 1
	}
	if n == 0 || n+1 >= len(name) {
		return "", "", false
	}
	return name[:n], name[n+1:], true
}

// symCache keeps each executable's table, by path, size and modification
// time: a lab run profiles the same binaries in every trial. A table of
// PostgREST 13 is a few MB: at most maxCachedTables are kept.
var symCache = struct {
	sync.Mutex
	m map[symKey]symEntry
}{m: map[symKey]symEntry{}}

type symKey struct {
	path  string
	size  int64
	mtime time.Time
}

type symEntry struct {
	t   *symTable
	err error
}

// symbolsOf is the (cached) symbol table of the executable at path.
func symbolsOf(path string) (*symTable, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New(path + ": not a regular file")
	}
	k := symKey{path, fi.Size(), fi.ModTime()}
	symCache.Lock()
	defer symCache.Unlock()
	if e, ok := symCache.m[k]; ok {
		return e.t, e.err
	}
	for old := range symCache.m {
		if old.path == path || len(symCache.m) >= maxCachedTables {
			delete(symCache.m, old) // the file changed (its old table is of no use), or room for this one
		}
	}
	t, err := loadSymTable(path)
	symCache.m[k] = symEntry{t, err}
	return t, err
}
