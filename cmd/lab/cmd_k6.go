package main

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/lab/report/format"
	"github.com/pgrst-lab/pgrst-lab/loadgen"
)

func init() {
	register(command{name: "k6", summary: "write the built-in scenarios as a k6 script", run: cmdK6})
}

const k6Usage = "k6 [--scenario A,B] [--url URL] [--rate N] [--duration D] [--out FILE]\n\nA k6 script of the built-in scenarios' requests as the lab sends them (docs/scenarios.md)."

func cmdK6(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs, o := newFlags("k6", k6Usage, stdout), loadgen.DefaultK6Options
	scen, out := fs.String("scenario", "", "comma-separated built-in scenarios (default: all)"), fs.String("out", "", "write the script to this file (default: standard output)")
	fs.StringVar(&o.URL, "url", o.URL, "the target's URL (k6 run -e URL=... overrides it)")
	fs.IntVar(&o.Rate, "rate", o.Rate, "requests per second of each scenario")
	fs.DurationVar(&o.Duration, "duration", o.Duration, "how long each scenario runs")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	var b bytes.Buffer
	if err := loadgen.K6Script(&b, o, strings.FieldsFunc(*scen, func(r rune) bool { return r == ',' })); err != nil {
		return usageErrorf("%v", err)
	} else if *out != "" {
		return format.WriteFile(*out, b.Bytes())
	}
	_, err := stdout.Write(b.Bytes())
	return err
}
