// Package profiler records where a service spends its CPU during a trial's
// measured window, and what the GHC runtime of a Haskell target did in it.
//
// CPU profiles come from Linux perf: Start runs `perf record -e cpu-clock
// -g` (a software event: hardware counters do not work on the lab's VMs)
// for the given processes, with its events disabled until the window
// starts and disabled again when it ends (perf's --control FIFOs), so the
// profile holds exactly the measured window. Stop ends it; Fold turns
// `perf script` output into folded stacks (root first), keeping the
// samples of the given processes (and those added with Track), with
// GHC's z-encoded symbol names decoded (DecodeGHC), e.g.
// postgrestzm13zi0zi8zm..._PostgRESTziQueryziSqlFragment_zdwescapeIdent_info
// becomes PostgREST.Query.SqlFragment.$wescapeIdent. perf leaves GHC code
// it has no symbol for (info tables are OBJECT symbols; a module's unnamed
// closures follow a FUNC symbol past its size) as a bare address: Fold
// names those in the tracked processes' executables after the nearest
// preceding symbol of the ELF symbol table (symtab.go), as
// "<Module>.[code after <name>]" past that symbol's size. perf 6.1 prints
// those addresses as offsets into the file; the frames perf did name show
// which reading holds, and without that evidence nothing is resolved. Frames still
// without a name are named after their service: "[postgresql executable]".
//
// GHC runtime statistics come from the file a GHC program writes with
// `+RTS -S<file>`: one line per garbage collection. ReadGHCStats reads only
// the lines written between two file offsets (the window's start and end).
//
// The package is an adapter: it knows processes by PID and files by path,
// and imports nothing of the lab (host/reconcile converts its results
// to the lab's domain types).
package profiler
