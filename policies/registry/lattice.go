package registry

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim"
)

// latticeOrder is Lattice's multi-factor queue: its arguments are the
// lattice: block, it ranks by a weight profile, counts its own tenants
// and writes the vCluster ownership and services tables.
var latticeOrder = Order{
	Name: "lattice", Doc: "Lattice's multi-factor score Σ wᵢ·fᵢ (--profile; lattice: block in --config), topology-aware, power-capped, with backfill",
	NewArgs:  func() Args { return &lattice.Args{} },
	Validate: validateLattice, Build: buildLattice, ChoosesNodes: true, Profiles: true,
	Flat: []string{"profile"}, Flags: latticeFlags,
	Tenants: func(args Args, tenants string) (string, int, map[string]float64) {
		return args.(*lattice.Args).MetricsTenants(tenants)
	},
	Tables: latticeTables,
}

func validateLattice(args Args, backfill policies.Backfill) []error {
	a := args.(*lattice.Args)
	errs := a.Validate(a.Profile)
	if backfill == policies.Conservative {
		errs = append(errs, fmt.Errorf("backfill conservative: the lattice queue holds one reservation (easy) or none"))
	}
	return errs
}

func buildLattice(env Env) (sim.Scheduler, policies.Order, error) {
	a := env.Args.(*lattice.Args)
	s, err := a.Build(env.Cluster, a.Profile, env.Backfill == policies.NoBackfill)
	return s, nil, err
}

// latticeFlags binds --profile, the block's profile.
func latticeFlags(fs *pflag.FlagSet, args func() Args) {
	fs.Var(stringArg(func() *string { return &args().(*lattice.Args).Profile }), "profile", "weight profile of --queue lattice: "+strings.Join(lattice.BuiltinNames(), ", ")+", or a profile YAML file")
}

// latticeTables writes the lattice scheduler's own tables: the vCluster
// ownership log (when vClusters are on) and the autoscaled services'
// tables (when it runs services).
func latticeTables(rec *metrics.Recorder, sched sim.Scheduler, c *sim.Cluster, end sim.Time) error {
	s, ok := sched.(*lattice.Scheduler)
	if !ok {
		return nil
	}
	if s.VClustersOn() {
		log := s.Ownership()
		changes := make([]metrics.OwnershipChange, len(log))
		for i, o := range log {
			changes[i] = metrics.OwnershipChange{At: o.At, Node: o.Node, Holder: o.Holder}
		}
		if err := rec.Ownership(changes); err != nil {
			return err
		}
	}
	if !s.ServicesOn() {
		return nil
	}
	var holdings []metrics.ServiceHolding
	for _, h := range s.ServiceTimeline() {
		holdings = append(holdings, metrics.ServiceHolding{At: h.At, Service: h.Service, Nodes: h.Nodes, Pending: h.Pending})
	}
	var events []metrics.ScaleEvent
	for _, e := range s.ScaleEvents() {
		names := make([]string, len(e.Nodes))
		for i, n := range e.Nodes {
			names[i] = c.Nodes[n].Name
		}
		events = append(events, metrics.ScaleEvent{At: e.At, Service: e.Service, Action: e.Action, From: e.From, To: e.To, Load: e.Load, Waited: e.Waited, Nodes: names})
	}
	var accounts []metrics.ServiceAccount
	for _, a := range s.ServiceSummaries(end) {
		accounts = append(accounts, metrics.ServiceAccount{Service: a.Service, MinNodes: a.MinNodes, MaxNodes: a.MaxNodes, NodeSeconds: a.NodeSeconds,
			Above: a.Above, Waiting: a.Waiting, AtMax: a.AtMax, Cooling: a.Cooling, Ups: a.Ups, Downs: a.Downs, Withdrawn: a.Withdrawn})
	}
	return rec.Services(holdings, events, accounts)
}
