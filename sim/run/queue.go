package run

import (
	"reflect"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
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
	for _, o := range registry.Orders() {
		if o.Name != order.Name && c.Args.given(o.Name) {
			errs = append(errs, c.otherOrderArgs(o, order)...)
		}
	}
	if order.Validate != nil {
		backfill, _ := policies.ParseBackfill(c.Backfill)
		for _, e := range order.Validate(c.Args.Of(order), backfill) {
			if order.NewArgs == nil {
				errs = append(errs, c.problem("queue", "%s", e.Error()))
			} else {
				errs = append(errs, c.argProblem(order.Name, order.Flat, e))
			}
		}
	}
	if order.ChoosesNodes {
		if st := c.Placement.String(); st != "first-fit" || len(c.Placement.Spec.Scorers) > 0 || c.Script.Path != "" || c.CandidateLimit != "" || c.Explain {
			errs = append(errs, c.problem("queue", "%s chooses nodes itself: drop --placement, --script, --candidate-limit and --explain", order.Name))
		}
	}
	return errs
}

// otherOrderArgs are the problems of arguments given to order o in a run
// of another order, run: a weight profile needs an order that reads one,
// and the rest of the block belongs to --queue o.
func (c *Spec) otherOrderArgs(o, run registry.Order) []error {
	var errs []error
	rest := c.Args.Get(o.Name)
	if p, ok := rest.(registry.Profiled); ok && *p.WeightProfile() != "" {
		if !run.Profiles {
			errs = append(errs, c.problem("profile", "weight profiles need --queue %s", strings.Join(profileOrders(), " or ")))
		}
		cp := o.NewArgs()
		reflect.ValueOf(cp).Elem().Set(reflect.ValueOf(p).Elem())
		*cp.(registry.Profiled).WeightProfile() = ""
		rest = cp
	}
	if !rest.IsZero() {
		errs = append(errs, c.problem(o.Name, "this block is the arguments of --queue %s", o.Name))
	}
	return errs
}

// argProblem is e, a problem of the arguments of policy block, which
// starts with its key. A flat key is named where it was given: at the top
// level, in the block (block.key), else by its flag.
func (c *Spec) argProblem(block string, flat []string, e error) error {
	msg := e.Error()
	if key, rest, ok := strings.Cut(msg, ": "); ok && slices.Contains(flat, key) {
		if _, atTop := c.source.lines[key]; !atTop {
			if _, inBlock := c.source.lines[block+"."+key]; inBlock {
				key = block + "." + key
			}
		}
		return c.problem(key, "%s", rest)
	}
	return c.problem(block, "%s", msg)
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
	return order.Build(registry.Env{Cluster: c, Backfill: backfill, Pipeline: pipe, Args: cfg.Args.Of(order), Batch: opts})
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

// writeOrderTables writes the queue order's own tables (registry.Order's
// Tables: Lattice's vCluster ownership and services).
func writeOrderTables(cfg *Spec, rec *metrics.Recorder, sched sim.Scheduler, c *sim.Cluster, end sim.Time) error {
	order, err := registry.LookupOrder(cfg.Queue)
	if err != nil || order.Tables == nil {
		return nil
	}
	return order.Tables(rec, sched, c, end)
}

// batchOptions are the batch scheduler's options: those of the run's
// backfill's arguments (conservative's --reservations, --planning-delay,
// --compat). Arguments given to another backfill are checked against the
// run's (conservative's compat is allowed beside easy, a repick is not).
func (c *Spec) batchOptions() (policies.Options, error) {
	var opts policies.Options
	run, _ := policies.ParseBackfill(c.Backfill)
	for _, b := range registry.Backfills() {
		name := string(b.Kind)
		if b.Options == nil || (b.Kind != run && !c.Args.given(name)) {
			continue
		}
		args := c.Args.Get(name)
		if args == nil {
			args = b.NewArgs()
		}
		o, err := b.Options(args, run)
		if err != nil {
			return opts, c.argProblem(name, b.Flat, err)
		}
		if b.Kind == run {
			opts = o
		}
	}
	return opts, nil
}

// backfillArgsGiven says whether any backfill's arguments set something.
func (c *Spec) backfillArgsGiven() bool {
	for _, b := range registry.Backfills() {
		if c.Args.given(string(b.Kind)) {
			return true
		}
	}
	return false
}
