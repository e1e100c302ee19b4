// Package format holds the pieces every report of package report and its
// subpackages shares: how a number, a duration and a count are printed
// (Num, Duration, Count, Share) and the k6-style table (K6Row: k6's
// end-of-test metrics, each as k6 defines it, with its Markdown and
// terminal layouts).
//
// It is also where text from a file, an agent, a server or git is escaped
// for each output: in Markdown by MdEscape (text), MdCode (a code span
// whose fence no backtick of the text ends) and MdLink (a relative link),
// wrapped by WrapLines so that no line starts a block; an HTML page is
// written by ExecuteHTML (html/template, then internal/textsafe); terminal
// lines print through textsafe.Fprintf (Columns does it for its cells).
package format
