package experiments

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// thread2020 are the throughputs (req/s) the 2020 PostgREST benchmark
// thread (k6 on a t3a.medium against PostgreSQL 12 + PostgREST on a
// t3a.nano) reported, as the bundled experiments quote them: release
// v7.0.1, master with the thread's fixes, master over a Unix socket, the
// instance-size sweep's c5.xlarge GETSingle, and the figures of its
// comments (the gains of each fix, the GETSingle result after them).
var thread2020 = map[string]float64{
	"v7.0.1 GETAllEmbed": 28.14130368125745, "v7.0.1 GETSingle": 1368.1003585286514,
	"v7.0.1 GETSingleEmbed": 478.7065957767772, "v7.0.1 POSTBulk": 558.278675135931,
	"v7.0.1 POSTSingle": 1125.3026654185057, "v7.0.1 RPCSimple": 1461.277419102948,
	"v7.0.1 RPCGETSingle": 1357.8467358391467, "v7.0.1 RPCGETSingleEmbed": 563.5562193025908,
	"master GETAllEmbed": 28.432965198469514, "master GETSingle": 2067.949048556139,
	"master GETSingleEmbed": 804.9944509323249, "master POSTBulk": 607.923018497801,
	"master POSTSingle": 1546.5607244755133, "master RPCSimple": 2011.3246029355748,
	"master RPCGETSingle": 2165.9723477785415, "master RPCGETSingleEmbed": 724.2786621387023,
	"master unix GETSingle": 2450.151619, "master unix POSTSingle": 1716.604133,
	"master unix RPCGETSingle":   2436.285207,
	"master c5.xlarge GETSingle": 2845.2504094666474,
	"fix: reduced logging":       200, "fix: query concatenation": 220, "fix: prepared statements": 240,
	"GETSingle after the fixes": 1980.830129,
}

// quoted finds the throughputs a comment quotes: a number before "req/s",
// on either side of "vs" or "->", or before "for"/"on" and a scenario.
var quoted = regexp.MustCompile(`(?:(?:vs|->) (\d{2,5})\b)|(?:\b(\d{2,5}) (?:req/s|vs|->|for GET|for POST|for RPC|on GET|on POST|on RPC))`)

// Every throughput a bundled experiment's comments quote is one of the
// 2020 thread's, rounded to the nearest req/s (pg-settings quoted
// GETAllEmbed at 111 req/s where the thread says 28; two files rounded
// POSTSingle's 1546.56 down).
func TestBundledCommentsQuoteTheThread(t *testing.T) {
	known := map[int]string{}
	for what, v := range thread2020 {
		known[int(math.Round(v))] = what
	}
	found := 0
	for _, n := range Names() {
		src, err := bundled.ReadFile(n + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		var comment []string
		for _, line := range strings.Split(string(src), "\n") {
			if c, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
				comment = append(comment, strings.TrimSpace(c))
			}
		}
		text := strings.Join(comment, " ") // a figure wrapped over two lines
		if !strings.Contains(text, "thread") {
			continue // no quote of the thread
		}
		for _, m := range quoted.FindAllStringSubmatch(text, -1) {
			s := m[1] + m[2]
			v, _ := strconv.Atoi(s)
			found++
			if _, ok := known[v]; !ok {
				t.Errorf("%s.toml quotes %s req/s, which the 2020 thread does not report (rounded to the nearest req/s)", n, s)
			}
		}
	}
	if found < 15 {
		t.Errorf("found %d quoted throughputs in the bundled experiments: the pattern no longer finds them", found)
	}
}
