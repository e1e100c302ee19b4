package capability

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
)

var (
	bytesRe   = regexp.MustCompile(`^([0-9]+[KMGT]?|[0-9]+(\.[0-9]+)?%|infinity)$`)
	percentRe = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?%$`)
	countRe   = regexp.MustCompile(`^([0-9]+|[0-9]+(\.[0-9]+)?%|infinity)$`)
	nofileRe  = regexp.MustCompile(`^([0-9]+|infinity)(:([0-9]+|infinity))?$`)
	weightRe  = regexp.MustCompile(`^([0-9]+|idle)$`)
)

// dropIn is a [Service] setting a variant may put in the target's drop-in:
// its value check (the forms systemd.resource-control(5) and
// systemd.exec(5) document). Which of them the host's supervisor can
// apply there is the supervisor's own fact (systemd/supervisor/direct,
// through a cgroup it needs rights to make): a run asks it before the
// first trial (lab.VariantChecker), as lab validate does not know the host.
type dropIn struct {
	check func(string) string
}

func matches(re *regexp.Regexp, what string) func(string) string {
	return func(v string) string {
		if !re.MatchString(v) {
			return fmt.Sprintf("%q is not %s", v, what)
		}
		return ""
	}
}

// isCPUList checks a CPU list by the lab's one rule (internal/cpulist).
func isCPUList(v string) string {
	if _, err := cpulist.Parse(v); err != nil {
		return fmt.Sprintf(`%q is not a CPU list (e.g. "0", "0-1" or "0 2"; CPUs 0..%d)`, v, cpulist.MaxCPU)
	}
	return ""
}

var dropIns = map[string]dropIn{
	"CPUAffinity": {isCPUList},
	"AllowedCPUs": {isCPUList},
	"CPUQuota":    {matches(percentRe, `a percentage of one CPU (e.g. "50%" or "150%")`)},
	"CPUWeight":   {matches(weightRe, `a CPU weight (1..10000 or idle)`)},
	"MemoryMax":   {matches(bytesRe, "a size (bytes with K, M, G or T; a percentage; or infinity)")},
	"MemoryHigh":  {matches(bytesRe, "a size (bytes with K, M, G or T; a percentage; or infinity)")},
	"TasksMax":    {matches(countRe, "a number of tasks (a number, a percentage or infinity)")},
	"LimitNOFILE": {matches(nofileRe, "a file limit (a number or infinity, or soft:hard)")},
	"Nice": {func(v string) string {
		if n, err := strconv.Atoi(v); err != nil || n < -20 || n > 19 {
			return fmt.Sprintf("%q is not a nice level (-20..19)", v)
		}
		return ""
	}},
}

// DropInKeys are the [Service] settings a variant may set, sorted.
// Environment= is not one of them: variables are set through Env, as a
// list, never as a line systemd or the direct supervisor parses again.
func DropInKeys() []string {
	ks := make([]string, 0, len(dropIns))
	for k := range dropIns {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// DropIn checks a drop-in setting for a variant: a known key with a value
// in its documented form.
func DropIn(key, val string) error {
	where := "dropin." + key
	if err := Text(where, val); err != nil {
		return err
	}
	d, ok := dropIns[key]
	if !ok {
		msg := fmt.Sprintf("is not an allowed drop-in setting (allowed: %s)", strings.Join(DropInKeys(), ", "))
		if key == "Environment" {
			msg = "is not an allowed drop-in setting: set environment variables with [variant.env], as a list"
		}
		code := Unknown
		if slices.Contains([]string{"ExecStart", "ExecStartPre", "ExecStartPost", "ExecStop", "ExecReload", "Environment", "EnvironmentFile", "User", "Group", "WorkingDirectory", "RootDirectory", "StandardOutput", "StandardError", "StandardInput"}, key) {
			code = Never
		}
		return &Error{Code: code, Where: where, Msg: msg}
	}
	if msg := d.check(val); msg != "" {
		return &Error{Code: Invalid, Where: where, Msg: msg}
	}
	return nil
}

// PGCPUAffinity checks [partition] postgresql, which becomes the
// CPUAffinity of the PostgreSQL unit: the same rule as the drop-in key,
// reported where the experiment sets it.
func PGCPUAffinity(val string) error {
	err := DropIn("CPUAffinity", val)
	var ce *Error
	if errors.As(err, &ce) {
		c := *ce
		c.Where = "partition.postgresql"
		return &c
	}
	return err
}
