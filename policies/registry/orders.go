package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
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
	// Less is the engine's queue order for the batch scheduler; nil for
	// an order that ranks the queue itself (Build's scheduler), so the
	// engine keeps arrival order.
	Less policies.Order
	// Build returns the run's scheduler.
	Build func(env Env) (sim.Scheduler, error)
	// ChoosesNodes: the order places jobs itself, so placement settings
	// do not apply.
	ChoosesNodes bool
}

// orders is the registry of queue orders, in the order they are listed.
var orders = []Order{
	{Name: "fcfs", Doc: "first come, first served: submit time, then trace order", Less: policies.FCFS, Build: batch},
	{Name: "sjf", Doc: "shortest job first by requested walltime (runtime when unknown), then FCFS", Less: policies.SJF, Build: batch},
	{Name: "lattice", Doc: "Lattice's multi-factor score Σ wᵢ·fᵢ (--profile; lattice: block in --config), topology-aware, power-capped, with backfill",
		ArgsKey: "lattice", NewArgs: func() any { return &lattice.Args{} }, Validate: validateLattice, Build: buildLattice, ChoosesNodes: true},
}

// batch is the batch scheduler over the engine-ordered queue.
func batch(env Env) (sim.Scheduler, error) {
	return policies.NewPlacedBatch(env.Backfill, env.Cluster, env.Pipeline)
}

func validateLattice(args any, profile string, backfill policies.Backfill) []error {
	errs := args.(*lattice.Args).Validate(profile)
	if backfill == policies.Conservative {
		errs = append(errs, fmt.Errorf("backfill conservative: the lattice queue holds one reservation (easy) or none"))
	}
	return errs
}

func buildLattice(env Env) (sim.Scheduler, error) {
	return env.Args.(*lattice.Args).Build(env.Cluster, env.Profile, env.Backfill == policies.NoBackfill)
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
