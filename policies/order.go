package policies

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Order is a strict queue order: Less(a, b) says a goes before b.
type Order func(a, b *sim.JobRun) bool

// FCFS orders by submit time, then arrival (trace) order.
func FCFS(a, b *sim.JobRun) bool {
	if a.Job.Submit != b.Job.Submit {
		return a.Job.Submit < b.Job.Submit
	}
	return a.Seq < b.Seq
}

// SJF orders by estimated runtime (walltime, else runtime), then FCFS.
func SJF(a, b *sim.JobRun) bool {
	ea, eb := a.EstimatedRuntime(), b.EstimatedRuntime()
	if ea != eb {
		return ea < eb
	}
	return FCFS(a, b)
}

var orders = map[string]struct {
	less Order
	doc  string
}{
	"fcfs": {FCFS, "first come, first served: submit time, then trace order"},
	"sjf":  {SJF, "shortest job first by requested walltime (runtime when unknown), then FCFS"},
}

// OrderByName returns a registered queue order.
func OrderByName(name string) (Order, error) {
	o, ok := orders[name]
	if !ok {
		return nil, fmt.Errorf("unknown queue order %q (known: %s)", name, strings.Join(OrderNames(), ", "))
	}
	return o.less, nil
}

// OrderNames lists the registered queue orders, sorted.
func OrderNames() []string {
	names := make([]string, 0, len(orders))
	for n := range orders {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// OrderDoc returns the one-line description of a queue order.
func OrderDoc(name string) string { return orders[name].doc }
