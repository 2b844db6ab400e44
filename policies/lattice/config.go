package lattice

import (
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// Config holds the solver's settings; the zero value is the seed's
// defaults (the default profile, reference wait 1 h, no usage decay,
// tenants by user with equal shares, node-seconds, groups by "rack",
// fingerprints by "conformance", no power budget, no prices, event mode,
// backfilling on, no preemption).
type Config struct {
	// Profiles chooses each job's weights; nil means the default profile.
	Profiles *Profiles
	// ReferenceWait is f₂'s reference; 0 means one hour.
	ReferenceWait sim.Time
	// HalfLife is the decay half-life of fair-share usage; 0: no decay.
	HalfLife sim.Time
	// Tenants says whose share a job counts against.
	Tenants Tenants
	// Usage is what consumption is measured in; "" is node-seconds.
	Usage UsageUnit
	// Shares are the tenants' target shares (any positive scale); nil or
	// empty: equal shares among the tenants seen.
	Shares map[string]float64
	// TopologyAttribute and ConformanceAttribute name the node attributes
	// holding a node's topology group and conformance fingerprint; "" for
	// the defaults (rack, conformance).
	TopologyAttribute, ConformanceAttribute string
	// PowerBudgetW caps the cluster's draw in watts; 0: no budget.
	PowerBudgetW float64
	// Prices is the electricity price series for f₇; nil: neutral.
	Prices *PriceSeries
	// Cycle, when > 0, schedules every Cycle of virtual time (at multiples
	// of it) instead of at every event time.
	Cycle sim.Time
	// NoBackfill stops a pass at the first job that cannot start.
	NoBackfill bool
	// Preemption lets the best-scored blocked job stop running jobs of a
	// strictly lower priority class to start now (preempt.go). Off by
	// default so that runs without it keep their results.
	Preemption bool
	// VClusters confines jobs to their vCluster's nodes, with borrowing
	// and reclaim (vcluster.go); off by default.
	VClusters VClusterConfig
	// Services are reactive allocations that hold whole nodes and scale
	// with their load (autoscale.go); none by default.
	Services []ServiceConfig
}

// New returns the GreedyTopologyAwareBackfill scheduler over cluster cl.
func New(cl *sim.Cluster, cfg Config) (*Scheduler, error) {
	if cfg.Profiles == nil {
		p, _ := Builtin(DefaultProfile)
		cfg.Profiles = &Profiles{Run: p}
	}
	if cfg.ReferenceWait <= 0 {
		cfg.ReferenceWait = DefaultReferenceWait
	}
	if cfg.HalfLife < 0 || cfg.Cycle < 0 || cfg.PowerBudgetW < 0 || cfg.VClusters.BorrowPenalty < 0 {
		return nil, fmt.Errorf("lattice: half-life, cycle, power budget and borrow penalty must be ≥ 0")
	}
	if cfg.VClusters.Attribute == "" {
		cfg.VClusters.Attribute = DefaultVClusterAttribute
	}
	switch cfg.Tenants.Key {
	case "":
		cfg.Tenants.Key = ByUser
	case ByUser, ByGroup, ByQueue:
	default:
		return nil, fmt.Errorf("lattice: tenants: want user, group or queue, got %q", cfg.Tenants.Key)
	}
	switch cfg.Usage {
	case "":
		cfg.Usage = NodeSeconds
	case NodeSeconds, CPUSeconds:
	default:
		return nil, fmt.Errorf("lattice: usage: want node or cpu, got %q", cfg.Usage)
	}
	if cfg.TopologyAttribute == "" {
		cfg.TopologyAttribute = DefaultTopologyAttribute
	}
	if cfg.ConformanceAttribute == "" {
		cfg.ConformanceAttribute = DefaultConformanceAttribute
	}
	fs, err := NewFairShare(cfg.Tenants, cfg.Usage, cfg.HalfLife, cfg.Shares)
	if err != nil {
		return nil, fmt.Errorf("lattice: %w", err)
	}
	s := &Scheduler{
		cfg:  cfg,
		cl:   cl,
		sel:  newSelector(cl, cfg.TopologyAttribute, cfg.ConformanceAttribute),
		fs:   fs,
		pw:   newPowerBudget(cl, cfg.PowerBudgetW),
		info: map[*sim.JobRun]*jobInfo{},
	}
	if cfg.VClusters.Enabled {
		s.vcs = newVClusters(cl, cfg.VClusters.Attribute)
	}
	if len(cfg.Services) > 0 {
		for _, sv := range cfg.Services {
			if sv.MaxNodes > len(cl.Nodes) || sv.Step < 1 || sv.Metric == nil || sv.MinNodes < 0 || sv.MinNodes > sv.MaxNodes {
				return nil, fmt.Errorf("lattice: service %s: want 0 ≤ min_nodes ≤ max_nodes ≤ the cluster's %d nodes, a step ≥ 1 and a metric", sv.Name, len(cl.Nodes))
			}
		}
		s.auto = newAutoscaler(cl, cfg.Services, &s.sel.topo)
	}
	return s, nil
}
