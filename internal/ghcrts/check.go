package ghcrts

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The bounds of the options a variant may give. They catch typos and
// runaway values (-N100000 asks for 100000 OS threads, -A64g for 64 GiB
// per capability), not what suits a given host: a variant that needs
// more memory than the host has is the drop-in's MemoryMax's business.
const (
	// MaxProcs bounds -N, -maxN and -qn: capabilities and GC threads.
	MaxProcs = 256
	// MaxArea bounds the per-capability sizes -A and -n, the old
	// generation's minimum -O and the stack sizes -ki, -kc and -kb.
	MaxArea = 1 << 30
	// MaxHeap bounds the heap sizes -H and -M and the stack limit -K.
	MaxHeap = 64 << 30
	// MaxGenerations bounds -G and the generation numbers of -qg and -qb.
	MaxGenerations = 10
)

// value checks what follows an option's letters; "" means fine.
type value func(v string) string

var (
	sizeRe    = regexp.MustCompile(`^([0-9]{1,12})([kKmMgG]?)$`)
	decimalRe = regexp.MustCompile(`^[0-9]{1,6}(\.[0-9]{1,6})?$`)
)

func none(v string) string {
	if v != "" {
		return "takes no value"
	}
	return ""
}

func count(lo, hi int, optional bool) value {
	return func(v string) string {
		if v == "" && optional {
			return ""
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi || strings.TrimLeft(v, "0123456789") != "" {
			return fmt.Sprintf("wants a whole number from %d to %d", lo, hi)
		}
		return ""
	}
}

func size(max int64, optional bool) value {
	return func(v string) string {
		if v == "" && optional {
			return ""
		}
		m := sizeRe.FindStringSubmatch(v)
		if m == nil {
			return "wants a size: a whole number of bytes with k, m or g (e.g. 64m)"
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		shift := map[string]uint{"": 0, "k": 10, "m": 20, "g": 30}[strings.ToLower(m[2])]
		if n <= 0 || n > max>>shift {
			return fmt.Sprintf("wants a size above 0 and at most %s", human(max))
		}
		return ""
	}
}

func decimal(optional bool) value {
	return func(v string) string {
		if (v == "" && optional) || decimalRe.MatchString(v) {
			return ""
		}
		return "wants a number (e.g. 0, 0.3 or 2)"
	}
}

func human(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%dg", n>>30)
	}
	return fmt.Sprintf("%dm", n>>20)
}

// vocabulary is every runtime option a variant may give: options that tune
// the scheduler, the garbage collector and the stacks, and write nothing.
// It is an allow-list: GHC's other options write files (-S, -s, -t, -h,
// -p, -l, -ol, -po, -r, --eventlog...), print and exit (-?, --info),
// change how the runtime meets the system (--install-signal-handlers,
// --io-manager, -xb, -xm, --numa) or exist only in debug and profiling
// builds; none of them is in it.
var vocabulary = map[string]struct {
	check value
	what  string
}{
	"-N":    {count(1, MaxProcs, true), "capabilities; -N alone: one per CPU"},
	"-maxN": {count(1, MaxProcs, false), "at most that many capabilities"},
	"-qn":   {count(1, MaxProcs, false), "parallel GC threads"},
	"-qg":   {count(0, MaxGenerations, true), "parallel GC from that generation; alone: off"},
	"-qb":   {count(0, MaxGenerations, true), "load-balancing GC from that generation; alone: off"},
	"-qa":   {none, "thread affinity"},
	"-qm":   {none, "no thread migration"},
	"-A":    {size(MaxArea, false), "allocation area per capability"},
	"-n":    {size(MaxArea, false), "allocation area chunk size"},
	"-O":    {size(MaxArea, false), "minimum old generation size"},
	"-H":    {size(MaxHeap, true), "suggested heap size; alone: automatic"},
	"-M":    {size(MaxHeap, false), "maximum heap size"},
	"-K":    {size(MaxHeap, false), "maximum stack size"},
	"-ki":   {size(MaxArea, false), "initial thread stack size"},
	"-kc":   {size(MaxArea, false), "stack chunk size"},
	"-kb":   {size(MaxArea, false), "stack chunk buffer size"},
	"-F":    {decimal(false), "old generation growth factor"},
	"-G":    {count(1, MaxGenerations, false), "generations"},
	"-c":    {none, "compacting collection of the oldest generation"},
	"-xn":   {none, "non-moving collector for the oldest generation"},
	"-I":    {decimal(false), "idle GC delay in seconds; 0: off"},
	"-C":    {decimal(true), "context switch interval in seconds"},
	"-V":    {decimal(false), "tick interval in seconds"},
	"-T":    {none, "GC statistics for the program itself, no file"},
}

// prefixes are the vocabulary's option names, longest first: an option is
// read by the longest name it starts with, should one name ever be the
// start of another.
var prefixes = func() []string {
	ps := make([]string, 0, len(vocabulary))
	for p := range vocabulary {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if len(ps[i]) != len(ps[j]) {
			return len(ps[i]) > len(ps[j])
		}
		return ps[i] < ps[j]
	})
	return ps
}()

// Allowed lists the options of the vocabulary, for messages.
func Allowed() string {
	ps := make([]string, len(prefixes))
	copy(ps, prefixes)
	sort.Strings(ps)
	return strings.Join(ps, " ")
}

// Check checks one runtime option a variant gives, on the command line or
// in GHCRTS: an option of the vocabulary (runtime tuning, nothing that
// writes a file) with a value within the bounds.
func Check(opt string) error {
	for _, p := range prefixes {
		if v, ok := strings.CutPrefix(opt, p); ok {
			if msg := vocabulary[p].check(v); msg != "" {
				return fmt.Errorf("RTS option %q %s (%s: %s)", opt, msg, p, vocabulary[p].what)
			}
			return nil
		}
	}
	return fmt.Errorf("RTS option %q is not one the lab allows: runtime tuning only (%s), no option that writes a file", opt, Allowed())
}

// CheckArgs checks a variant's command-line arguments: every runtime
// option, between +RTS and -RTS or after a +RTS left open, passes Check;
// "--RTS" and "--", which end GHC's +RTS processing, are refused, and so
// is a +RTS section left open: the lab appends arguments of its own after
// a variant's (+RTS -S<file> -RTS when profiling, the config file), whose
// meaning either would change. i is the index of the refused argument.
func CheckArgs(args []string) (i int, err error) {
	in := false
	for i, a := range args {
		switch a {
		case "+RTS":
			in = true
		case "-RTS":
			in = false
		case "--RTS", "--":
			return i, fmt.Errorf("%q ends GHC's +RTS processing, which would turn the lab's own arguments after the variant's into program arguments", a)
		default:
			if in {
				if err := Check(a); err != nil {
					return i, err
				}
			}
		}
	}
	if in {
		return len(args) - 1, fmt.Errorf("+RTS without a closing -RTS: the lab's own arguments after the variant's would become runtime options; end the options with -RTS")
	}
	return 0, nil
}

// CheckEnv checks a GHCRTS value: every word passes Check.
func CheckEnv(ghcrts string) error {
	for _, o := range Env(ghcrts) {
		if err := Check(o); err != nil {
			return err
		}
	}
	return nil
}
