package loadgen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/safefile"
)

// Bounds on a targets file and what it pulls in: the file and its bodies
// are hostile input.
const (
	MaxTargetsFileSize = 1 << 20  // bytes of the targets file
	MaxTargetBodySize  = 16 << 20 // bytes of one @body file
	MaxBodyFileSize    = 16 << 20 // bytes of a scenario's body_file (ReadFileBounded)
	MaxTargetBodies    = 64 << 20 // bytes of all bodies together
	MaxTargets         = 10_000   // targets in one file
	maxTargetLine      = 64 << 10 // bytes of one line
)

// ExpectNoServerError as Request.Expect accepts any answer below 500: a
// targets file (vegeta's format) says nothing about statuses, and
// PostgREST's own mixes request missing tables and functions on purpose.
const ExpectNoServerError = -1

// TargetsError is a problem of a targets file at a line.
type TargetsError struct {
	File string
	Line int
	Msg  string
}

func (e *TargetsError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ReadTargets reads a file in vegeta's HTTP targets format, as PostgREST's
// test/load/targets.http uses it:
//
//	# a comment
//	POST http://postgrest/films?columns=id,title
//	Prefer: tx=rollback
//	Authorization: Bearer {jwt role=web_user exp=+1h}
//	@post.json
//
// Targets are separated by blank lines: a line "METHOD URL", header lines
// "Name: value", at most one "@path" body file (relative to the targets
// file, and inside its directory). Lines starting with # are comments.
// Only the URL's path and query are used: the requests go to the
// experiment's target, so the host must be loopback or a bare name such as
// "postgrest" (vegeta runs on a Unix socket); any other host is refused
// rather than silently redirected. Header values may hold templates
// ({rand LO HI}, {seq START}, {jwt ...}). Every request expects
// ExpectNoServerError. Errors name file:line and what was expected; they
// never quote the file (it may not be a targets file at all, but a secret
// a hostile experiment names). The file and its bodies must be regular
// files (a FIFO or a device is refused without blocking) within the
// bounds above. path must hold no symbolic link (ReadFileBounded).
func ReadTargets(path string) ([]Request, error) {
	src, err := ReadFileBounded(path, MaxTargetsFileSize)
	if err != nil {
		return nil, fmt.Errorf("targets %s: %w", path, err)
	}
	return ParseTargets(path, src, bodyReader(filepath.Dir(path)))
}

// ReadFileBounded reads a regular file of at most limit bytes at a path
// that holds no symbolic link, as the lab's validation leaves it (resolved
// with filepath.EvalSymlinks, then checked to lie inside the experiment's
// directory): safefile.ReadResolved opens it once, component by component
// without following links, so a file swapped for a link to somewhere else
// after the check is refused, not read; a FIFO, a device or a directory is
// refused without blocking.
func ReadFileBounded(path string, limit int64) ([]byte, error) {
	return safefile.ReadResolved(path, limit)
}

// ParseTargets parses src (see ReadTargets); name is used in errors and
// body reads a "@path" body.
func ParseTargets(name string, src []byte, body func(rel string) ([]byte, error)) ([]Request, error) {
	p := targetsParser{name: name, body: body}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 4096), maxTargetLine)
	for sc.Scan() {
		p.line++
		if err := p.feed(strings.TrimRight(sc.Text(), "\r")); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, p.errorf("a line is too long (lines are at most %d bytes)", maxTargetLine)
	}
	if len(p.out) == 0 {
		return nil, p.errorf("no targets (want lines like \"GET http://localhost/artist\")")
	}
	jwts := newBudget()
	for i, r := range p.out { // templates: syntax only, the secret comes with the run
		if _, err := compileBudget(r, "", "", syntaxSigner(), jwts); err != nil {
			p.line = p.starts[i]
			return nil, p.errorf("%s", safeMessage(err))
		}
	}
	return p.out, nil
}

type targetsParser struct {
	name   string
	line   int
	body   func(string) ([]byte, error)
	cur    *Request // the target being read; nil between targets
	hasBod bool
	bytes  int
	out    []Request
	starts []int // line of each target's request line
}

func (p *targetsParser) errorf(format string, args ...any) error {
	return &TargetsError{File: p.name, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *targetsParser) feed(line string) error {
	t := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(t, "#"):
		return nil
	case t == "":
		p.cur = nil
		return nil
	case p.cur == nil:
		return p.start(t)
	case strings.HasPrefix(t, "@"):
		return p.readBody(strings.TrimSpace(t[1:]))
	}
	k, v, ok := strings.Cut(t, ":")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || strings.ContainsAny(k, " \t") {
		return p.errorf("want a header \"Name: value\", a body \"@file\" or a blank line before the next target")
	}
	if p.hasBod {
		return p.errorf("a header after the body line: headers come first")
	}
	if _, dup := p.cur.Header[k]; dup {
		return p.errorf("a header given twice in the target")
	}
	p.cur.Header[k] = v
	return nil
}

// start reads "METHOD URL".
func (p *targetsParser) start(t string) error {
	f := strings.Fields(t)
	if len(f) != 2 {
		return p.errorf("want \"METHOD URL\" (e.g. GET http://localhost/artist)")
	}
	switch f[0] {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
	default:
		return p.errorf("unknown method: allowed are GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
	}
	path, err := targetPath(f[1])
	if err != nil {
		return p.errorf("%v", err)
	}
	if len(p.out) == MaxTargets {
		return p.errorf("more than %d targets", MaxTargets)
	}
	p.out = append(p.out, Request{Method: f[0], Path: path, Header: map[string]string{}, Expect: ExpectNoServerError, Line: p.line})
	p.cur, p.hasBod = &p.out[len(p.out)-1], false
	p.starts = append(p.starts, p.line)
	return nil
}

// targetPath returns the path and query of an http URL whose host is
// loopback or a bare name. Its errors do not quote the URL.
func targetPath(u string) (string, error) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		return "", errors.New("URL: want http://HOST/PATH (https and other schemes are not supported)")
	}
	host, path := rest, "/"
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if !localHost(host) {
		return "", errors.New("URL: the host is not loopback; the requests go to the experiment's target, so give localhost, 127.0.0.1, ::1 or a bare name like postgrest")
	}
	return path, nil
}

func localHost(h string) bool {
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback()
	}
	if h == "" || strings.EqualFold(h, "localhost") {
		return true
	}
	for _, c := range h { // a bare name: one DNS label, never resolved
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func (p *targetsParser) readBody(rel string) error {
	if p.hasBod {
		return p.errorf("a second body line: one @file per target")
	}
	if rel == "" {
		return p.errorf("\"@\" without a file name")
	}
	b, err := p.body(rel)
	if err != nil {
		return p.errorf("body file: %v", err)
	}
	if p.bytes += len(b); p.bytes > MaxTargetBodies {
		return p.errorf("bodies larger than %d bytes together", MaxTargetBodies)
	}
	p.cur.Body, p.hasBod = b, true
	return nil
}

// bodyReader reads body files inside dir only: relative paths, no "..",
// no symbolic link leading out, regular files of at most MaxTargetBodySize
// bytes, read from the resolved path without following links (a body
// swapped for a link after the check is refused). Its errors do not quote
// the name the targets file gives.
func bodyReader(dir string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
			return nil, errors.New("must be a path inside the targets file's directory")
		}
		root, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return nil, err
		}
		full, err := filepath.EvalSymlinks(filepath.Join(root, rel))
		if err != nil {
			return nil, errors.New("cannot be read (missing, or a broken symbolic link)")
		}
		if r, err := filepath.Rel(root, full); err != nil || !filepath.IsLocal(r) {
			return nil, errors.New("leads outside the targets file's directory (symbolic link)")
		}
		b, err := ReadFileBounded(full, MaxTargetBodySize)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("cannot be read: %v", pe.Err)
			}
			return nil, err
		}
		return b, nil
	}
}
