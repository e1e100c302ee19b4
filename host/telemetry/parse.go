package telemetry

import "bytes"

// Small allocation-free parsers for procfs and cgroupfs text.

// atou parses the leading decimal digits of b.
func atou(b []byte) (uint64, bool) {
	var v uint64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + uint64(b[i]-'0')
	}
	return v, i > 0
}

// keyValue finds "key<sep>value" at the start of a line of b (flat-keyed
// files: cpu.stat, memory.events, memory.oom_control, /proc/<pid>/status)
// and parses value as an unsigned integer, skipping spaces and tabs.
func keyValue(b []byte, key string) (uint64, bool) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) > len(key) && string(line[:len(key)]) == key {
			rest := line[len(key):]
			if rest[0] != ' ' && rest[0] != '\t' && rest[0] != ':' {
				continue
			}
			rest = bytes.TrimLeft(rest, ": \t")
			return atou(rest)
		}
	}
	return 0, false
}

// fields splits b on spaces into at most len(dst) fields, without allocating.
func fields(b []byte, dst [][]byte) int {
	n := 0
	for n < len(dst) {
		for len(b) > 0 && (b[0] == ' ' || b[0] == '\n') {
			b = b[1:]
		}
		if len(b) == 0 {
			break
		}
		i := 0
		for i < len(b) && b[i] != ' ' && b[i] != '\n' {
			i++
		}
		dst[n] = b[:i]
		b = b[i:]
		n++
	}
	return n
}

// eachInt calls f for every decimal integer in b (cgroup.procs, children).
func eachInt(b []byte, f func(int)) {
	for len(b) > 0 {
		for len(b) > 0 && (b[0] < '0' || b[0] > '9') {
			b = b[1:]
		}
		i := 0
		v := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			v = v*10 + int(b[i]-'0')
			i++
		}
		if i > 0 {
			f(v)
		}
		b = b[i:]
	}
}
