package profiler

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Profile is a perf recording as folded stacks.
type Profile struct {
	Samples  int64
	PeriodNs int64
	// PerfCPUSeconds is the CPU time perf record itself used during the
	// window (not attaching before it or writing its data after it).
	PerfCPUSeconds float64
	Stacks         []Stack // most samples first
}

// Stack is one folded stack: root first (the service), leaf last.
type Stack struct {
	Frames []string
	Count  int64
}

// Bounds on what one sample may contribute: perf script's output comes
// from the profiled programs' symbol tables, which a variant controls.
const (
	maxDepth     = 128
	maxFrameName = 256
)

// ParseScript folds the output of `perf script -F pid,ip,sym,dso`: a
// header line with the PID per sample, then one tab-indented "addr symbol
// (dso)" line per frame, leaf first, and a blank line (without call
// chains, one line "pid addr symbol (dso)" per sample). Symbols are GHC-decoded;
// unknown ones are named after their DSO ("[libc.so.6]"). service names a
// PID's root frame; the samples of a PID it does not know ("") are left out.
func ParseScript(r io.Reader, service func(pid int) string) (Profile, error) {
	return parseScript(r, service, nil)
}

// resolver names the code at addresses perf left unresolved in a DSO (by
// path). It first sees the frames perf did name (observe), so that it can
// tell how perf's addresses relate to the file's, then names the others
// (resolve), or reports false.
type resolver interface {
	observe(dso string, addr uint64, sym string)
	resolve(dso string, addr uint64) (string, bool)
}

// unresolvedFrame marks, while parsing, a frame left for the resolver:
// unresolvedFrame + dso + "\x01" + hex address.
const unresolvedFrame = "\x01?"

func parseScript(r io.Reader, service func(pid int) string, res resolver) (Profile, error) {
	folded := map[string]*Stack{}
	var p Profile
	var frames []string
	pid := -1
	flush := func() {
		if pid < 0 {
			return
		}
		root := service(pid)
		if root == "" {
			pid, frames = -1, frames[:0]
			return
		}
		st := make([]string, 0, len(frames)+1)
		st = append(st, root)
		for i := len(frames) - 1; i >= 0; i-- {
			st = append(st, frames[i])
		}
		key := strings.Join(st, "\x00")
		if s, ok := folded[key]; ok {
			s.Count++
		} else {
			folded[key] = &Stack{Frames: st, Count: 1}
		}
		p.Samples++
		pid, frames = -1, frames[:0]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case line[0] == '\t':
			if pid >= 0 && len(frames) < maxDepth {
				f := frameName(strings.TrimSpace(line), res)
				// A run of unknown frames (an unwinder lost in code without
				// frame pointers, as GHC's) is one frame.
				if n := len(frames); n == 0 || f != frames[n-1] || !strings.HasPrefix(f, "[") {
					frames = append(frames, f)
				}
			}
		default:
			flush()
			head, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
			n, err := strconv.Atoi(strings.SplitN(head, "/", 2)[0])
			if err != nil {
				return p, fmt.Errorf("perf script: sample header %q: no PID", truncate(line))
			}
			pid = n
			if rest = strings.TrimSpace(rest); rest != "" { // no call chain: the frame is on the header line
				frames = append(frames, frameName(rest, res))
			}
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return p, fmt.Errorf("perf script: %w", err)
	}
	if res != nil {
		folded = resolveFrames(folded, res)
	}
	for _, s := range folded {
		p.Stacks = append(p.Stacks, *s)
	}
	slices.SortFunc(p.Stacks, func(a, b Stack) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return slices.Compare(a.Frames, b.Frames)
	})
	return p, nil
}

// frameName is a frame line's function: "addr sym (dso)" -> the decoded
// symbol, or "[dso base name]" when perf does not know the symbol. With a
// resolver, it sees the frames perf named, and the others of a file are
// left for it (unresolvedFrame).
func frameName(line string, res resolver) string {
	addr, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	sym, dso := rest, ""
	if i := strings.LastIndex(rest, " ("); i >= 0 && strings.HasSuffix(rest, ")") {
		sym, dso = rest[:i], rest[i+2:len(rest)-1]
	}
	a, aerr := strconv.ParseUint(addr, 16, 64)
	fileDSO := res != nil && aerr == nil && strings.HasPrefix(dso, "/")
	if sym == "" || sym == "[unknown]" {
		if dso == "" || dso == "[unknown]" {
			return "[unknown]"
		}
		if fileDSO {
			return unresolvedFrame + dso + "\x01" + strconv.FormatUint(a, 16)
		}
		return "[" + filepath.Base(dso) + "]"
	}
	if fileDSO {
		res.observe(dso, a, sym)
	}
	return truncate(DecodeGHC(sym))
}

// resolveFrames names the frames left for the resolver (or after their
// file, as without one) and folds the stacks again.
func resolveFrames(folded map[string]*Stack, res resolver) map[string]*Stack {
	out := make(map[string]*Stack, len(folded))
	for _, s := range folded {
		frames := make([]string, 0, len(s.Frames))
		for i, f := range s.Frames {
			if i > 0 && strings.HasPrefix(f, unresolvedFrame) {
				dso, hex, _ := strings.Cut(f[len(unresolvedFrame):], "\x01")
				a, _ := strconv.ParseUint(hex, 16, 64)
				name, ok := res.resolve(dso, a)
				if !ok {
					name = "[" + filepath.Base(dso) + "]"
				}
				f = name
			}
			// A run of unknown frames (an unwinder lost in code without
			// frame pointers, as GHC's) is one frame.
			if n := len(frames); n > 1 && f == frames[n-1] && strings.HasPrefix(f, "[") {
				continue
			}
			frames = append(frames, f)
		}
		key := strings.Join(frames, "\x00")
		if o, ok := out[key]; ok {
			o.Count += s.Count
		} else {
			out[key] = &Stack{Frames: frames, Count: s.Count}
		}
	}
	return out
}

func truncate(s string) string {
	if len(s) <= maxFrameName {
		return s
	}
	return s[:maxFrameName] + "…"
}
