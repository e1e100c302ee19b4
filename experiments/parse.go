package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/BurntSushi/toml"

	"github.com/pgrst-lab/pgrst-lab/lab"
)

// KeyValidator checks one PostgREST config key and its value (as text: "10",
// "false", "crit") against PostgREST's catalogue; allowUnknown is the file's
// allow_unknown_keys. The command line passes configs.ValidateSetting, so
// that this package needs no adapter. For an unknown key it should return
// an *UnknownKey, which is reported at the table (variant[1].postgrest:
// unknown key "db-pol" ...); any other error is reported at the key.
type KeyValidator func(key, value string, allowUnknown bool) error

// Parse decodes and validates an experiment file. filename is used in
// error messages only. validate checks PostgREST keys; nil skips that check.
//
// Defaults (lab.Experiment.Defaults) fill what the file leaves out; a value
// the file writes, even 0, is kept and validated. On any problem Parse
// returns nil and an Errors listing every problem found, in line order:
// TOML syntax (only the first: the parser stops there), unknown keys, wrong
// types, impossible values (lab.Experiment.Validate) and PostgREST keys.
func Parse(filename string, src []byte, validate KeyValidator) (*lab.Experiment, error) {
	return parseSource(filename, src, validate, false)
}

// parseSource is Parse; with onDisk (LoadWith: filename is the file read)
// the files the experiment names are also checked where they are (see
// files.go).
func parseSource(filename string, src []byte, validate KeyValidator, onDisk bool) (*lab.Experiment, error) {
	return parseWith(parse{file: filename}, src, validate, onDisk)
}

// parseWith is parseSource with the parse's settings.
func parseWith(p parse, src []byte, validate KeyValidator, onDisk bool) (*lab.Experiment, error) {
	filename := p.file
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, Errors{&Error{File: filename, Line: pe.Position.Line, Err: errors.New(pe.Message)}}
		}
		return nil, Errors{&Error{File: filename, Err: err}}
	}
	p.lines = indexLines(src)

	// Check the document against the struct; on problems, decode what is
	// left of it (re-encoded) so that Validate still reports the rest.
	var c checker
	c.table(nil, doc, reflect.TypeOf(fileExperiment{}))
	for _, pr := range c.probs {
		p.add(pr.at, pr.shown, pr.err)
	}
	if len(c.probs) > 0 {
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
			return nil, p.result()
		}
		src = buf.Bytes()
	}

	f := defaultFile()
	md, err := toml.Decode(string(src), &f)
	if err != nil { // the checker should have caught it: report it as is
		p.errs = append(p.errs, &Error{File: filename, Err: err})
		return nil, p.result()
	}
	for _, k := range md.Undecoded() { // likewise
		p.add(k, k[:len(k)-1], &UnknownKey{Key: k[len(k)-1]})
	}
	e := f.experiment()
	if !md.IsDefined("trials", "max") && e.Trials.Max < e.Trials.Min {
		e.Trials.Max = e.Trials.Min // trials.min = 12 alone raises the default max
	}
	for i := range e.Custom {
		e.Custom[i].Defaults()
	}
	p.files(e, onDisk)

	p.sweep(e)
	checked := map[string]bool{}
	if validate != nil {
		for i, v := range e.Variants {
			el := fmt.Sprintf("variant[%d]", i)
			for _, k := range slices.Sorted(maps.Keys(v.PostgREST)) {
				at := []string{el, "postgrest", k}
				if err := validate(k, v.PostgREST[k], e.AllowUnknownKeys); err != nil {
					checked[pathKey(at)] = true
					var uk *UnknownKey
					if errors.As(err, &uk) && e.Sweep == nil {
						p.add(at, at[:2], err)
						continue
					}
					p.addField(e, at, err)
				}
			}
		}
	}
	for _, err := range e.Validate() {
		var fe *lab.FieldError
		if !errors.As(err, &fe) {
			p.errs = append(p.errs, &Error{File: filename, Err: err})
			continue
		}
		if checked[pathKey(fe.Field)] || under(fe.Field, c.removed) {
			continue // already reported: the catalogue or the checker said what is wrong here
		}
		p.addField(e, fe.Field, errors.New(fe.Msg))
	}
	p.placeholders(e)
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	return e, nil
}

// placeholders checks the $(VAR) syntax of binaries and args; the
// variables themselves are looked up when the experiment runs (Expand).
func (p *parse) placeholders(e *lab.Experiment) {
	set := func(string) (string, bool) { return "x", true }
	for i, v := range e.Variants {
		el := fmt.Sprintf("variant[%d]", i)
		if _, err := expand(v.Binary, set); err != nil {
			p.add([]string{el, "binary"}, []string{el, "binary"}, err)
		}
		for j, a := range v.Args {
			if _, err := expand(a, set); err != nil {
				at := []string{el, fmt.Sprintf("args[%d]", j)}
				p.add(at, at, err)
			}
		}
	}
}

// under reports whether path is one of roots or below one.
func under(path []string, roots [][]string) bool {
	for _, r := range roots {
		if len(path) >= len(r) && slices.Equal(path[:len(r)], r) {
			return true
		}
	}
	return false
}

type parse struct {
	file    string
	bundled bool // a bundled experiment: its targets file is embedded too
	lines   lineIndex
	errs    []*Error
}

func (p *parse) add(at, shown []string, err error) {
	p.errs = append(p.errs, &Error{File: p.file, Line: p.lines.line(at), Path: lab.FormatPath(shown), Err: err})
}

// sweep takes a sweep's single [[variant]] as the template every value
// shares and, if the sweep itself is sound, generates its variants, so
// that each value is validated like a variant's value.
func (p *parse) sweep(e *lab.Experiment) {
	if e.Sweep == nil {
		return
	}
	if len(e.Variants) > 1 {
		p.add([]string{"variant[1]"}, []string{"variant[1]"},
			errors.New("a sweep generates its variants: write at most one [[variant]], without name, holding what every value shares"))
	}
	if len(e.Variants) > 0 {
		t := e.Variants[0]
		e.Sweep.Template = &t
	}
	e.Variants = nil
	for _, err := range e.ValidateSweep() {
		var fe *lab.FieldError
		if !errors.As(err, &fe) || len(fe.Field) == 0 || fe.Field[0] == "sweep" {
			return // the values are not known: Validate reports why
		}
	}
	e.ExpandSweep()
}

// addField reports a problem at a field of the experiment. A field of a
// variant a sweep generated is reported where the file writes it: at the
// sweep value for the swept setting, else at the [[variant]] every value
// shares; the same problem of every value is reported once.
func (p *parse) addField(e *lab.Experiment, field []string, err error) {
	var i int
	if e.Sweep != nil && len(field) > 0 {
		if _, scanErr := fmt.Sscanf(field[0], "variant[%d]", &i); scanErr == nil {
			if at := e.Sweep.Origin(i, field[1:]); at != nil {
				val := e.Variants[i].Name
				field, err = at, fmt.Errorf("%s (%s): %w", lab.FormatPath(field[1:]), val, err)
			} else {
				field = append([]string{"variant[0]"}, field[1:]...)
			}
		}
	}
	for _, prev := range p.errs {
		if prev.Path == lab.FormatPath(field) && prev.Err.Error() == err.Error() {
			return
		}
	}
	p.add(field, field, err)
}

func (p *parse) result() Errors {
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	out := make(Errors, len(p.errs))
	for i, e := range p.errs {
		out[i] = e
	}
	return out
}
