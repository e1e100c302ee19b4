package profile

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"html"
	"slices"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// Flame graph geometry, in SVG units.
const (
	flameWidth    = 1200.0
	flameRow      = 17.0
	flameMinWidth = 1.0 // narrower frames are left out
	flameMaxDepth = 64  // deeper frames are left out
	flameCharW    = 6.6 // approximate width of a character at font-size 11
)

// node is a frame in the merged call tree.
type node struct {
	name     string
	count    int64
	children map[string]*node
}

func (n *node) child(name string) *node {
	if n.children == nil {
		n.children = map[string]*node{}
	}
	c, ok := n.children[name]
	if !ok {
		c = &node{name: name}
		n.children[name] = c
	}
	return c
}

// FlameSVG renders stacks (root first) as a flame graph: the root at the
// bottom, a frame's width its share of the samples, children sorted by
// name (the classic layout; time order is not kept). Every frame carries a
// <title> with its samples and share, which browsers show on hover: no
// script is needed.
func FlameSVG(stacks []lab.Stack, title string) []byte {
	root := &node{name: "all"}
	for _, s := range stacks {
		root.count += s.Count
		n := root
		for _, f := range s.Frames[:min(len(s.Frames), flameMaxDepth)] {
			n = n.child(f)
			n.count += s.Count
		}
	}
	h := float64(visibleDepth(root, flameWidth)+1)*flameRow + 30
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg class="flame" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.0f %.0f" width="100%%" font-family="monospace" font-size="11">`, flameWidth, h)
	fmt.Fprintf(&b, `<title>%s</title><rect width="100%%" height="100%%" fill="#fdfdf6"/>`, esc(title))
	fmt.Fprintf(&b, `<text x="4" y="14" font-size="12">%s</text>`, esc(title))
	if root.count > 0 {
		drawFrame(&b, root, root.count, 0, flameWidth, 0, h)
	}
	b.WriteString(`</svg>`)
	return b.Bytes()
}

// visibleDepth is how many levels above n are wide enough to be drawn.
func visibleDepth(n *node, w float64) int {
	d := 0
	for _, c := range n.children {
		if cw := w * float64(c.count) / float64(n.count); cw >= flameMinWidth {
			d = max(d, 1+visibleDepth(c, cw))
		}
	}
	return d
}

// drawFrame draws n at x, level deep from the bottom, and its children.
func drawFrame(b *bytes.Buffer, n *node, total int64, x, w float64, level int, h float64) {
	y := h - float64(level+1)*flameRow
	share := 100 * float64(n.count) / float64(total)
	label := n.name
	fmt.Fprintf(b, `<g><title>%s: %d samples (%.2f%%)</title><rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s" stroke="#fff" stroke-width="0.4"/>`,
		esc(label), n.count, share, x, y, w, flameRow-1, flameColor(n.name, level))
	if chars := int((w - 6) / flameCharW); chars >= 3 {
		r := []rune(label)
		if len(r) > chars {
			r = append(r[:chars-1], '…')
		}
		fmt.Fprintf(b, `<text x="%.2f" y="%.1f">%s</text>`, x+3, y+flameRow-5, esc(string(r)))
	}
	b.WriteString(`</g>`)
	kids := make([]*node, 0, len(n.children))
	for _, c := range n.children {
		kids = append(kids, c)
	}
	slices.SortFunc(kids, func(a, b *node) int { return cmp.Compare(a.name, b.name) })
	cx := x
	for _, c := range kids {
		cw := w * float64(c.count) / float64(n.count)
		if cw >= flameMinWidth {
			drawFrame(b, c, total, cx, cw, level+1, h)
		}
		cx += cw
	}
}

// flameColor is a warm colour that is stable per function name; the
// services at the bottom are grey.
func flameColor(name string, level int) string {
	if level <= 1 {
		return "#c8c8c8"
	}
	f := fnv.New32a()
	f.Write([]byte(name))
	v := f.Sum32()
	return fmt.Sprintf("rgb(%d,%d,%d)", 205+v%50, 80+(v>>8)%130, 40+(v>>16)%50)
}

// esc makes a frame's name or a title SVG text: one line without
// terminal controls (textsafe.Plain; the names come from the profiled
// binaries), its markup escaped.
func esc(s string) string { return html.EscapeString(textsafe.Plain(s)) }

// Folded is the stacks in the folded format of flamegraph.pl: one line per
// stack, frames root first joined by ";" (a ";" or newline inside a frame
// becomes ":" or a space), a space and the count.
func Folded(stacks []lab.Stack) []byte {
	var b bytes.Buffer
	clean := strings.NewReplacer(";", ":", "\n", " ", "\r", " ")
	for _, s := range stacks {
		for i, f := range s.Frames {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(clean.Replace(textsafe.Plain(f)))
		}
		fmt.Fprintf(&b, " %d\n", s.Count)
	}
	return b.Bytes()
}
