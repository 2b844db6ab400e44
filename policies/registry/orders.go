package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// Env is what building a queue order's scheduler needs of the run.
type Env struct {
	Cluster  *sim.Cluster
	Backfill policies.Backfill
	// Pipeline is the run's placement pipeline; nil for the plain first
	// fit.
	Pipeline *placement.Pipeline
	// Args are the order's typed arguments (its NewArgs, decoded from
	// the spec block named after it; nil when it takes none).
	Args Args
	// Batch are the batch scheduler's options (conservative's
	// reservation rule and planning delay).
	Batch policies.Options
}

// Args are a queue order's typed arguments: a pointer to a struct with
// YAML tags, read strictly from the run spec's block named after the
// order. IsZero says the block sets nothing (run.yaml then leaves it out,
// and a run of another order may not give it). Arguments that name files
// implement Paths (relative paths are resolved against the spec file).
type Args interface {
	IsZero() bool
}

// Profiled are the arguments of an order that ranks by a weight profile
// (Order.Profiles): WeightProfile is where its --profile is kept.
type Profiled interface {
	Args
	WeightProfile() *string
}

// Order is a registered queue order.
type Order struct {
	Name string
	Doc  string
	// NewArgs returns the zero value of the order's arguments; nil for an
	// order that takes none.
	NewArgs func() Args
	// Validate checks the arguments of a run that chose this order;
	// each error starts with its key inside the block.
	Validate func(args Args, backfill policies.Backfill) []error
	// Build returns the run's scheduler and the engine's queue order
	// (nil for an order that ranks the queue itself, so the engine keeps
	// arrival order).
	Build func(env Env) (sim.Scheduler, policies.Order, error)
	// ChoosesNodes: the order places jobs itself, so placement settings
	// do not apply.
	ChoosesNodes bool
	// Profiles: the order ranks by a weight profile (--profile, a
	// sweep's profiles axis and its w_<factor> parameters); its
	// arguments are Profiled.
	Profiles bool
	// Flat are the keys of the arguments a spec also gives at its top
	// level, and run.yaml writes there (lattice's profile).
	Flat []string
	// Flags binds the order's own flags on the replay's flag set; args
	// returns the run's arguments to set (nil: none).
	Flags func(fs *pflag.FlagSet, args func() Args)
	// Tenants are the tenants the metrics count by (tenants table, Jain
	// columns) when the order defines its own, given --tenants; nil:
	// --tenants alone.
	Tenants func(args Args, tenants string) (key string, buckets int, shares map[string]float64)
	// Tables writes the order's own tables once the run has ended (nil:
	// none), from the scheduler Build returned.
	Tables func(rec *metrics.Recorder, sched sim.Scheduler, c *sim.Cluster, end sim.Time) error
}

// orders is the registry of queue orders, in the order they are listed.
var orders = []Order{
	{Name: "fcfs", Doc: "first come, first served: submit time, then trace order", Build: batch(policies.FCFS)},
	{Name: "sjf", Doc: "shortest job first by requested walltime (runtime when unknown), then FCFS", Build: batch(policies.SJF)},
	multifactorOrder,
	latticeOrder,
}

// batch is the batch scheduler over the queue the engine keeps in order.
func batch(less policies.Order) func(env Env) (sim.Scheduler, policies.Order, error) {
	return func(env Env) (sim.Scheduler, policies.Order, error) {
		s, err := policies.NewBatchWith(env.Backfill, env.Cluster, env.Pipeline, env.Batch)
		return s, less, err
	}
}

// RegisterQueue adds a queue order written outside this repository: runs
// then choose it by name (--queue, queue: in a spec, a sweep's queue axis)
// like the built-in ones. Build returns its sim.Scheduler, which sees the
// engine through sim.Context and starts jobs with Context.Start, and the
// engine's queue order (nil: arrival order). The name must be new; with
// NewArgs, the spec block named after the order holds its arguments,
// decoded strictly like the built-in ones. Register before validating or
// replaying, from an init function or main: the registry is not guarded
// against concurrent runs.
func RegisterQueue(o Order) error {
	switch {
	case o.Name == "" || strings.ContainsAny(o.Name, " \t\n,"):
		return fmt.Errorf("queue order name %q: want a word", o.Name)
	case o.Build == nil:
		return fmt.Errorf("queue order %q: Build is nil", o.Name)
	}
	if _, err := LookupOrder(o.Name); err == nil {
		return fmt.Errorf("queue order %q is already registered", o.Name)
	}
	if _, taken := LookupBlock(o.Name); taken {
		return fmt.Errorf("queue order %q: the name of a backfill's arguments", o.Name)
	}
	orders = append(orders, o)
	return nil
}

// Orders returns the registered queue orders.
func Orders() []Order { return slices.Clone(orders) }

// OrderNames returns their names, in registry order.
func OrderNames() []string {
	names := make([]string, len(orders))
	for i, o := range orders {
		names[i] = o.Name
	}
	return names
}

// LookupOrder returns the queue order called name, or an error naming the
// known ones.
func LookupOrder(name string) (Order, error) {
	i := slices.IndexFunc(orders, func(o Order) bool { return o.Name == name })
	if i < 0 {
		return Order{}, fmt.Errorf("unknown queue order %q (known: %s)", name, strings.Join(OrderNames(), ", "))
	}
	return orders[i], nil
}
