package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/multifactor"
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
	// Args are the order's arguments: the spec block named by the
	// order's ArgsKey (nil when it has none).
	Args any
	// Profile is --profile, for the orders that read a weight profile.
	Profile string
	// Batch are the batch scheduler's options (conservative's
	// reservation rule and planning delay).
	Batch policies.Options
}

// Order is a registered queue order.
type Order struct {
	Name string
	Doc  string
	// ArgsKey is the spec block holding the order's arguments ("" for
	// none); NewArgs returns its zero value, a pointer to a struct with
	// YAML tags.
	ArgsKey string
	NewArgs func() any
	// Validate checks the arguments (and the profile) of a run that
	// chose this order; each error names its key inside the block.
	Validate func(args any, profile string, backfill policies.Backfill) []error
	// Build returns the run's scheduler and the engine's queue order
	// (nil for an order that ranks the queue itself, so the engine keeps
	// arrival order).
	Build func(env Env) (sim.Scheduler, policies.Order, error)
	// ChoosesNodes: the order places jobs itself, so placement settings
	// do not apply.
	ChoosesNodes bool
}

// orders is the registry of queue orders, in the order they are listed.
var orders = []Order{
	{Name: "fcfs", Doc: "first come, first served: submit time, then trace order", Build: batch(policies.FCFS)},
	{Name: "sjf", Doc: "shortest job first by requested walltime (runtime when unknown), then FCFS", Build: batch(policies.SJF)},
	{Name: "multifactor", Doc: "Slurm's multifactor priority: age, fair share, job size, partition, QOS (multifactor: block, or its slurm_conf)",
		ArgsKey: "multifactor", NewArgs: func() any { return &multifactor.Config{} }, Validate: validateMultifactor, Build: buildMultifactor},
	{Name: "lattice", Doc: "Lattice's multi-factor score Σ wᵢ·fᵢ (--profile; lattice: block in --config), topology-aware, power-capped, with backfill",
		ArgsKey: "lattice", NewArgs: func() any { return &lattice.Args{} }, Validate: validateLattice, Build: buildLattice, ChoosesNodes: true},
}

// batch is the batch scheduler over the queue the engine keeps in order.
func batch(less policies.Order) func(env Env) (sim.Scheduler, policies.Order, error) {
	return func(env Env) (sim.Scheduler, policies.Order, error) {
		s, err := policies.NewBatchWith(env.Backfill, env.Cluster, env.Pipeline, env.Batch)
		return s, less, err
	}
}

func validateMultifactor(args any, _ string, _ policies.Backfill) []error {
	if _, _, err := args.(*multifactor.Config).Resolve(""); err != nil {
		return []error{err}
	}
	return nil
}

// buildMultifactor re-ranks the queue at every pass (priorities age), in
// front of the batch scheduler of the run's backfill.
func buildMultifactor(env Env) (sim.Scheduler, policies.Order, error) {
	cfg, _, err := env.Args.(*multifactor.Config).Resolve("")
	if err != nil {
		return nil, nil, err
	}
	o, err := multifactor.New(cfg, env.Cluster)
	if err != nil {
		return nil, nil, err
	}
	inner, err := policies.NewBatchWith(env.Backfill, env.Cluster, env.Pipeline, env.Batch)
	if err != nil {
		return nil, nil, err
	}
	return o.Wrap(inner), o.Less, nil
}

func validateLattice(args any, profile string, backfill policies.Backfill) []error {
	errs := args.(*lattice.Args).Validate(profile)
	if backfill == policies.Conservative {
		errs = append(errs, fmt.Errorf("backfill conservative: the lattice queue holds one reservation (easy) or none"))
	}
	return errs
}

func buildLattice(env Env) (sim.Scheduler, policies.Order, error) {
	s, err := env.Args.(*lattice.Args).Build(env.Cluster, env.Profile, env.Backfill == policies.NoBackfill)
	return s, nil, err
}

// RegisterQueue adds a queue order written outside this repository: runs
// then choose it by name (--queue, queue: in a spec, a sweep's queue axis)
// like the built-in ones. Build returns its sim.Scheduler, which sees the
// engine through sim.Context and starts jobs with Context.Start, and the
// engine's queue order (nil: arrival order). The name must be new, and an
// order registered at run time reads no spec block (ArgsKey ""). Register
// before validating or replaying, from an init function or main: the
// registry is not guarded against concurrent runs.
func RegisterQueue(o Order) error {
	switch {
	case o.Name == "" || strings.ContainsAny(o.Name, " \t\n,"):
		return fmt.Errorf("queue order name %q: want a word", o.Name)
	case o.Build == nil:
		return fmt.Errorf("queue order %q: Build is nil", o.Name)
	case o.ArgsKey != "":
		return fmt.Errorf("queue order %q: ArgsKey %q: an order registered at run time reads no spec block", o.Name, o.ArgsKey)
	}
	if _, err := LookupOrder(o.Name); err == nil {
		return fmt.Errorf("queue order %q is already registered", o.Name)
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
