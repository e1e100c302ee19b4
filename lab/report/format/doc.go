// Package format holds the pieces every report of package report and its
// subpackages shares: how a number, a duration and a count are printed
// (Num, Duration, Count, Share) and the k6-style table (K6Row: k6's
// end-of-test metrics, each as k6 defines it, with its Markdown and
// terminal layouts).
package format
