package run

import (
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
)

// validateQueue reports the problems of --queue, --profile and the order
// argument blocks.
func (c *Spec) validateQueue() []error {
	var errs []error
	order, err := registry.LookupOrder(c.Queue)
	if err != nil {
		return []error{c.problem("queue", "%v", err)}
	}
	for _, key := range c.Args.set() {
		if key != order.Name {
			errs = append(errs, c.problem(key, "this block is the arguments of --queue %s", key))
		}
	}
	if c.Profile != "" && !order.Profiles {
		errs = append(errs, c.problem("profile", "weight profiles need --queue %s", strings.Join(profileOrders(), " or ")))
	}
	if order.Validate != nil {
		backfill, _ := policies.ParseBackfill(c.Backfill)
		for _, e := range order.Validate(c.Args.Of(order), c.Profile, backfill) {
			key, msg := order.Name, e.Error()
			if rest, ok := strings.CutPrefix(msg, "profile: "); ok {
				key, msg = "profile", rest // --profile, not a key of the block
			} else if order.NewArgs == nil {
				key = "queue"
			}
			errs = append(errs, c.problem(key, "%s", msg))
		}
	}
	if order.ChoosesNodes {
		if st := c.Placement.String(); st != "first-fit" || len(c.Placement.Spec.Scorers) > 0 || c.Script.Path != "" || c.CandidateLimit != "" || c.Explain {
			errs = append(errs, c.problem("queue", "%s chooses nodes itself: drop --placement, --script, --candidate-limit and --explain", order.Name))
		}
	}
	return errs
}

// newScheduler builds the run's scheduler from the registry.
func newScheduler(cfg *Spec, backfill policies.Backfill, c *sim.Cluster, pipe *placement.Pipeline) (sim.Scheduler, policies.Order, error) {
	order, err := registry.LookupOrder(cfg.Queue)
	if err != nil {
		return nil, nil, err
	}
	opts, err := cfg.batchOptions()
	if err != nil {
		return nil, nil, err
	}
	return order.Build(registry.Env{Cluster: c, Backfill: backfill, Pipeline: pipe, Args: cfg.Args.Of(order), Profile: cfg.Profile, Batch: opts})
}

// profileOrders are the queue orders that read a weight profile.
func profileOrders() []string {
	var names []string
	for _, o := range registry.Orders() {
		if o.Profiles {
			names = append(names, o.Name)
		}
	}
	return names
}

// metricsTenants resolves the tenants of the metrics (tenants table, Jain
// columns): --tenants (default user), raw values and equal shares, unless
// the queue order defines its own (registry.Order.Tenants: lattice's).
func (c *Spec) metricsTenants() (key string, buckets int, shares map[string]float64) {
	order, err := registry.LookupOrder(c.Queue)
	if err != nil || order.Tenants == nil {
		return c.Tenants, 0, nil
	}
	return order.Tenants(c.Args.Of(order), c.Tenants)
}

// isProfileFile says whether --profile names a YAML file.
func isProfileFile(p string) bool { return lattice.IsProfileFile(p) }

// writeOrderTables writes the queue order's own tables (registry.Order's
// Tables: Lattice's vCluster ownership and services).
func writeOrderTables(cfg *Spec, rec *metrics.Recorder, sched sim.Scheduler, c *sim.Cluster, end sim.Time) error {
	order, err := registry.LookupOrder(cfg.Queue)
	if err != nil || order.Tables == nil {
		return nil
	}
	return order.Tables(rec, sched, c, end)
}

// batchOptions are the batch scheduler's options: --reservations and
// --planning-delay, or --compat batsim's (repick and 5 s under
// conservative backfilling; the flags given beside it win).
func (c *Spec) batchOptions() (policies.Options, error) {
	var o policies.Options
	backfill, _ := policies.ParseBackfill(c.Backfill)
	switch c.Compat {
	case "":
	case "batsim":
		if backfill == policies.Conservative {
			o = policies.Options{Reservations: policies.Repick, PlanningDelay: sim.SecondsToTime(5)}
		}
	default:
		return o, c.problem("compat", "unknown simulator %q (known: batsim)", c.Compat)
	}
	if c.Reservations != "" {
		r, err := policies.ParseReservations(c.Reservations)
		if err != nil {
			return o, c.problem("reservations", "%v", err)
		}
		o.Reservations = r
	}
	if c.PlanningDelayS != 0 {
		d, err := sim.CheckSeconds(c.PlanningDelayS)
		if err != nil {
			return o, c.problem("planning_delay_s", "%v", err)
		}
		o.PlanningDelay = d
	}
	if err := o.Validate(backfill); err != nil {
		key := "reservations"
		if c.Reservations == "" {
			key = "planning_delay_s"
		}
		return o, c.problem(key, "%v", err)
	}
	return o, nil
}
