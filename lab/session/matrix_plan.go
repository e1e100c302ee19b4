package session

import (
	"fmt"
	"strings"

	"github.com/pgrst-lab/pgrst-lab/internal/cpulist"
	"github.com/pgrst-lab/pgrst-lab/lab"
)

// matrixPlan is how the hosts of a matrix run: at the same time, each
// host's load generator on its own slice of the driver's CPUs, or one
// after another; why says which and for what reason.
type matrixPlan struct {
	concurrent bool
	generators []string // per host: CPU list for its load generator (concurrent only)
	why        string
}

// planMatrix decides whether the hosts (as their agents describe them) can
// run at the same time. They can when they are distinct machines (none
// shares its host identity with another or with the driver, whose cores
// the load generators use) and the experiment's [partition] generator
// lists at least one CPU per host, so that each host's load generator gets
// cores of its own. Otherwise they run one after another.
func planMatrix(driver lab.Host, hosts []lab.Host, labels []string, e *lab.Experiment) matrixPlan {
	seq := func(format string, args ...any) matrixPlan { return matrixPlan{why: fmt.Sprintf(format, args...)} }
	if len(hosts) < 2 {
		return seq("one host")
	}
	seen := map[string]string{}
	for i, h := range hosts {
		if h.HostID == "" {
			return seq("agent %s does not report its machine's identity, so it may share cores with another host", labels[i])
		}
		if h.HostID == driver.HostID {
			return seq("%s is this driver's own machine: its server would share cores with the load generators", labels[i])
		}
		if other, ok := seen[h.HostID]; ok {
			return seq("%s and %s report the same machine (host id %q): their servers would share its cores", other, labels[i], h.HostID)
		}
		seen[h.HostID] = labels[i]
	}
	if e.Partition.Generator == "" {
		return seq("the experiment has no [partition] generator CPU list, so the hosts' load generators would share this driver's cores")
	}
	cpus, err := cpulist.Parse(e.Partition.Generator)
	if err != nil {
		return seq("[partition] generator: %v", err)
	}
	if len(cpus) < len(hosts) {
		return seq("[partition] generator lists %d CPU(s) for %d hosts: each host's load generator needs a core of its own", len(cpus), len(hosts))
	}
	p := matrixPlan{concurrent: true}
	per := len(cpus) / len(hosts)
	var parts []string
	for i := range hosts {
		part := cpus[i*per : (i+1)*per]
		p.generators = append(p.generators, cpulist.Format(part))
		parts = append(parts, labels[i]+" "+cpulist.Format(part))
	}
	p.why = fmt.Sprintf("distinct machines, and [partition] generator %s gives each host's load generator its own CPUs (%s)",
		e.Partition.Generator, strings.Join(parts, ", "))
	return p
}
