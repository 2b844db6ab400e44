package run

import (
	"reflect"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
)

// orderArgs is the spec block holding the arguments of the queue orders
// that read block key: the QueueSpec field with that YAML key (adding an
// order with arguments adds one such field; nothing here changes).
func (c *Spec) orderArgs(key string) any {
	if key == "" {
		return nil
	}
	q := reflect.ValueOf(&c.QueueSpec).Elem()
	for i := 0; i < q.NumField(); i++ {
		name, _, _ := strings.Cut(q.Type().Field(i).Tag.Get("yaml"), ",")
		if name == key {
			return q.Field(i).Addr().Interface()
		}
	}
	return nil
}

// argBlocks says, for each order-argument block of the registry, whether
// the spec sets it, to refuse a block given to an order that does not
// read it.
func (c *Spec) argBlocks() map[string]bool {
	set := map[string]bool{}
	for _, o := range registry.Orders() {
		if z, ok := c.orderArgs(o.ArgsKey).(interface{ IsZero() bool }); ok {
			set[o.ArgsKey] = !z.IsZero()
		}
	}
	return set
}

// validateQueue reports the problems of --queue, --profile and the order
// argument blocks.
func (c *Spec) validateQueue() []error {
	var errs []error
	order, err := registry.LookupOrder(c.Queue)
	if err != nil {
		return []error{c.problem("queue", "%v", err)}
	}
	for key, set := range c.argBlocks() {
		if set && key != order.ArgsKey {
			errs = append(errs, c.problem(key, "this block is the arguments of --queue %s", key))
		}
	}
	if c.Profile != "" && order.Name != "lattice" {
		errs = append(errs, c.problem("profile", "weight profiles need --queue lattice"))
	}
	if order.Validate != nil {
		backfill, _ := policies.ParseBackfill(c.Backfill)
		for _, e := range order.Validate(c.orderArgs(order.ArgsKey), c.Profile, backfill) {
			key, msg := order.ArgsKey, e.Error()
			if rest, ok := strings.CutPrefix(msg, "profile: "); ok {
				key, msg = "profile", rest // --profile, not a key of the block
			} else if key == "" {
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
	return order.Build(registry.Env{Cluster: c, Backfill: backfill, Pipeline: pipe, Args: cfg.orderArgs(order.ArgsKey), Profile: cfg.Profile, Batch: opts})
}

// metricsTenants resolves the tenants of the metrics (tenants table, Jain
// columns): --tenants (default user), raw values and equal shares, unless
// the lattice queue's own tenants apply (lattice.Args.MetricsTenants).
func (c *Spec) metricsTenants() (key string, buckets int, shares map[string]float64) {
	if c.Queue != "lattice" {
		return c.Tenants, 0, nil
	}
	return c.Lattice.MetricsTenants(c.Tenants)
}

// isProfileFile says whether --profile names a YAML file.
func isProfileFile(p string) bool { return lattice.IsProfileFile(p) }

// writeLatticeTables writes the lattice scheduler's own tables: the
// vCluster ownership log (when vClusters are on) and the autoscaled
// services' tables (when it runs services).
func writeLatticeTables(rec *metrics.Recorder, sched sim.Scheduler, c *sim.Cluster, end sim.Time) error {
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
