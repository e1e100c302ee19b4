package profiler

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// GHCWindow is what a GHC runtime's +RTS -S file says about a window.
type GHCWindow struct {
	GCs, MajorGCs  int
	BytesAllocated int64
	GCCPUSeconds   float64
	// CPUSeconds is the process's user CPU from the last collection before
	// the window to the last one in it (0 when there was none before).
	CPUSeconds float64
	// MaxLiveBytes is the largest Live column of any collection: after a
	// minor one it counts the old generation uncollected, so it is the
	// heap's peak after a collection, not the data kept alive (Live).
	MaxLiveBytes int64
	// Live is the live heap after each major collection (generation 1 or
	// more), seconds after the window's start (the process's elapsed time
	// at the last collection before it), the largest of each second.
	Live []LivePoint
}

// LivePoint is the live heap after a major collection.
type LivePoint struct {
	Seconds float64
	Bytes   int64
}

// gcLine is one line of +RTS -S output:
//
//	Alloc Copied Live GCuser GCelap TOTuser TOTelap PageFlts PageFlts (Gen:  N)
type gcLine struct {
	alloc, live            int64
	gcUser, total, elapsed float64
	gen                    int
}

// maxGHCWindow bounds how much of the file one window reads.
const maxGHCWindow = 64 << 20

// FileSize is the size of path, 0 when it does not exist.
func FileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// ReadGHCStats reads the collections written to a +RTS -S file between
// the offsets from and to (FileSize at the window's start and end). A file
// that shrank (the process restarted) is an error.
func ReadGHCStats(path string, from, to int64) (GHCWindow, error) {
	var w GHCWindow
	if to < from {
		return w, fmt.Errorf("%s: the file shrank during the window (target restarted?)", path)
	}
	if to-from > maxGHCWindow {
		return w, fmt.Errorf("%s: %d bytes in one window, more than %d", path, to-from, maxGHCWindow)
	}
	f, err := os.Open(path)
	if err != nil {
		return w, err
	}
	defer f.Close()
	// The last line before the window gives the process's CPU at its start.
	back := min(from, 4096)
	buf := make([]byte, to-from+back)
	if _, err := f.ReadAt(buf, from-back); err != nil && !errors.Is(err, io.EOF) {
		return w, fmt.Errorf("%s: %w", path, err)
	}
	before, in := buf[:back], buf[back:]
	var prev *gcLine
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		lines := bytes.Split(before[:i], []byte("\n"))
		if l, ok := parseGCLine(string(lines[len(lines)-1])); ok {
			prev = &l
		}
	}
	if i := bytes.LastIndexByte(in, '\n'); i >= 0 {
		in = in[:i] // a line still being written belongs to the next window
	} else {
		in = nil
	}
	var first, last *gcLine
	for _, raw := range strings.Split(string(in), "\n") {
		l, ok := parseGCLine(raw)
		if !ok {
			continue
		}
		w.GCs++
		if l.gen >= 1 {
			w.MajorGCs++
		}
		w.BytesAllocated += l.alloc
		w.GCCPUSeconds += l.gcUser
		w.MaxLiveBytes = max(w.MaxLiveBytes, l.live)
		if first == nil {
			first = &l
		}
		if l.gen >= 1 {
			start := first.elapsed
			if prev != nil {
				start = prev.elapsed
			}
			w.addLive(l.elapsed-start, l.live)
		}
		last = &l
	}
	switch {
	case last != nil && prev != nil:
		w.CPUSeconds = last.total - prev.total
	case last != nil:
		w.CPUSeconds = last.total - first.total + first.gcUser
	}
	return w, nil
}

// addLive adds a major collection's live heap, keeping the largest of
// each second.
func (w *GHCWindow) addLive(at float64, live int64) {
	at = max(at, 0)
	if n := len(w.Live); n > 0 && int(w.Live[n-1].Seconds) == int(at) {
		if live > w.Live[n-1].Bytes {
			w.Live[n-1] = LivePoint{at, live}
		}
		return
	}
	w.Live = append(w.Live, LivePoint{at, live})
}

// parseGCLine parses one collection's line; headers, the summary and the
// final partial line are not collections.
func parseGCLine(s string) (gcLine, bool) {
	f := strings.Fields(s)
	if len(f) != 11 || f[9] != "(Gen:" {
		return gcLine{}, false
	}
	var l gcLine
	var errs [7]error
	l.alloc, errs[0] = strconv.ParseInt(f[0], 10, 64)
	l.live, errs[1] = strconv.ParseInt(f[2], 10, 64)
	l.gcUser, errs[2] = strconv.ParseFloat(f[3], 64)
	l.total, errs[3] = strconv.ParseFloat(f[5], 64)
	l.gen, errs[4] = strconv.Atoi(strings.TrimSuffix(f[10], ")"))
	_, errs[5] = strconv.ParseInt(f[1], 10, 64)
	l.elapsed, errs[6] = strconv.ParseFloat(f[6], 64)
	if errors.Join(errs[:]...) != nil || l.alloc < 0 || l.live < 0 || l.gcUser < 0 {
		return gcLine{}, false
	}
	return l, true
}
