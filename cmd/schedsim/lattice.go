package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// latticeQueue is the --queue name of Lattice's multi-factor queue. It is
// not a policies.Order: the lattice scheduler ranks the queue itself every
// pass (scores change with time), so the engine keeps arrival order.
const latticeQueue = "lattice"

const latticeDoc = "Lattice's multi-factor score Σ wᵢ·fᵢ (--profile; lattice: block in --config), topology-aware, power-capped, with backfill"

// latticeConfig is the lattice: block of --config.
type latticeConfig struct {
	ReferenceWaitS float64 `yaml:"reference_wait_s"` // f₂'s reference; default 3600
	HalfLifeS      float64 `yaml:"half_life_s"`      // usage decay; 0: none
	Tenants        string  `yaml:"tenants"`          // user (default), group, queue
	// TenantBuckets > 0 makes synthetic tenants t0…t(k−1): the numeric id
	// of the tenant field (SWF user u17 → 17) mod k.
	TenantBuckets        int                `yaml:"tenant_buckets"`
	Usage                string             `yaml:"usage"`  // node (default) or cpu seconds
	Shares               map[string]float64 `yaml:"shares"` // tenant → target share (any scale)
	TopologyAttribute    string             `yaml:"topology_attribute"`
	ConformanceAttribute string             `yaml:"conformance_attribute"`
	PowerBudgetKW        float64            `yaml:"power_budget_kw"`
	EnergyPrices         string             `yaml:"energy_prices"` // CSV time_s,price
	CycleS               float64            `yaml:"cycle_s"`       // 0: every event time
	QueueProfiles        map[string]string  `yaml:"queue_profiles"`
	// ProfilesFile is a profile YAML file whose profiles --profile NAME
	// may name (its own profile: is the default).
	ProfilesFile string `yaml:"profiles"`
	// Preemption lets a blocked job stop running jobs of a lower priority
	// class (0–10) to start now; they resume from their last checkpoint
	// (--checkpoint, or the trace's interval).
	Preemption bool `yaml:"preemption"`
	// VClusters confines jobs (label vcluster, else queue) to their
	// vCluster's nodes (node attribute), with borrowing and reclaim.
	VClusters latticeVClusters `yaml:"vclusters"`
}

// latticeVClusters is the lattice block's vclusters: entry.
type latticeVClusters struct {
	Enabled       bool    `yaml:"enabled"`
	Attribute     string  `yaml:"attribute"`      // node attribute; default vcluster
	BorrowPenalty float64 `yaml:"borrow_penalty"` // subtracted from a borrowing job's score
}

func (l *latticeConfig) isZero() bool {
	return l.ReferenceWaitS == 0 && l.HalfLifeS == 0 && l.Tenants == "" && l.TenantBuckets == 0 && l.Usage == "" &&
		len(l.Shares) == 0 && l.TopologyAttribute == "" && l.ConformanceAttribute == "" && l.PowerBudgetKW == 0 &&
		l.EnergyPrices == "" && l.CycleS == 0 && len(l.QueueProfiles) == 0 && l.ProfilesFile == "" && !l.Preemption && l.VClusters == (latticeVClusters{})
}

// queueNames lists the --queue values: the registered orders and lattice.
func queueNames() []string { return append(policies.OrderNames(), latticeQueue) }

// checkQueue validates a --queue value.
func checkQueue(name string) error {
	if name == latticeQueue {
		return nil
	}
	if _, err := policies.OrderByName(name); err != nil {
		return fmt.Errorf("unknown queue order %q (known: %s)", name, strings.Join(queueNames(), ", "))
	}
	return nil
}

// isProfileFile says whether --profile names a YAML file rather than a
// built-in profile.
func isProfileFile(p string) bool {
	return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.ContainsRune(p, os.PathSeparator)
}

// validateLattice reports the problems of --profile and the lattice:
// block; the expensive checks (files) only when lattice is the queue.
func (c *replayConfig) validateLattice() []error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Queue != latticeQueue {
		if c.Profile != "" {
			add("--profile: weight profiles need --queue lattice")
		}
		if !c.Lattice.isZero() {
			add("lattice: this block needs --queue lattice")
		}
		return errs
	}
	if _, err := c.latticeProfiles(); err != nil {
		add("--profile: %v", err)
	}
	l := &c.Lattice
	switch l.Tenants {
	case "", "user", "group", "queue":
	default:
		add("lattice.tenants: want user, group or queue, got %q", l.Tenants)
	}
	switch l.Usage {
	case "", "node", "cpu":
	default:
		add("lattice.usage: want node or cpu, got %q", l.Usage)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"reference_wait_s", l.ReferenceWaitS}, {"half_life_s", l.HalfLifeS}, {"power_budget_kw", l.PowerBudgetKW}, {"cycle_s", l.CycleS},
		{"vclusters.borrow_penalty", l.VClusters.BorrowPenalty}} {
		if f.v < 0 {
			add("lattice.%s: must be ≥ 0", f.name)
		}
	}
	if l.TenantBuckets < 0 {
		add("lattice.tenant_buckets: must be ≥ 0")
	}
	if _, err := lattice.NewFairShare(lattice.Tenants{}, "", 0, l.Shares); err != nil {
		add("lattice.shares: %v", err)
	}
	if l.EnergyPrices != "" {
		if _, err := lattice.LoadPrices(l.EnergyPrices); err != nil {
			add("lattice.energy_prices: %v", err)
		}
	}
	if c.Backfill == string(policies.Conservative) {
		add("--backfill conservative: the lattice queue holds one reservation (easy) or none")
	}
	if st := c.Placement.String(); st != "first-fit" || len(c.Placement.Spec.Scorers) > 0 || c.Script.Path != "" || c.CandidateLimit != "" || c.Explain {
		add("--queue lattice chooses nodes itself (fewest topology groups, one conformance group): drop --placement, --script, --candidate-limit and --explain")
	}
	return errs
}

// latticeProfiles resolves --profile (a name, or a YAML file whose
// profile: it runs), the block's profiles file and its queue_profiles.
func (c *replayConfig) latticeProfiles() (*lattice.Profiles, error) {
	file, run := c.Lattice.ProfilesFile, c.Profile
	if run != "" && isProfileFile(run) {
		if file != "" {
			return nil, fmt.Errorf("give a profile file in --profile or in lattice.profiles, not both")
		}
		file, run = run, ""
	}
	if file == "" {
		return lattice.NamedProfiles(run, c.Lattice.QueueProfiles, nil)
	}
	pf, err := lattice.LoadProfileFile(file)
	if err != nil {
		return nil, err
	}
	if run != "" {
		pf.Run = run
	}
	return pf.Resolve(c.Lattice.QueueProfiles)
}

// metricsTenants resolves the tenants of the metrics (tenants table, Jain
// columns). They follow the lattice scheduler's tenants by default, so the
// fairness measured is the fairness the fair-share factor aims at: with
// --queue lattice, the key is the block's tenants unless --tenants says
// otherwise, and the block's tenant_buckets and shares apply whenever the
// key is the block's. Otherwise: --tenants (default user), raw values and
// equal shares.
func (c *replayConfig) metricsTenants() (key string, buckets int, shares map[string]float64) {
	key = c.Tenants
	if c.Queue != latticeQueue {
		return key, 0, nil
	}
	own := c.Lattice.Tenants
	if own == "" {
		own = string(lattice.ByUser)
	}
	if key == "" {
		key = own
	}
	if key != own {
		return key, 0, nil
	}
	return key, c.Lattice.TenantBuckets, c.Lattice.Shares
}

// newScheduler builds the run's scheduler: the lattice queue, or a batch
// scheduler over the engine-ordered queue.
func newScheduler(cfg *replayConfig, backfill policies.Backfill, c *sim.Cluster, pipe *placement.Pipeline) (sim.Scheduler, error) {
	if cfg.Queue != latticeQueue {
		return policies.NewPlacedBatch(backfill, c, pipe)
	}
	return newLattice(cfg, c)
}

// writeOwnership writes the lattice scheduler's vCluster ownership log as
// the ownership table, when vClusters are on.
func writeOwnership(rec *metrics.Recorder, sched sim.Scheduler) error {
	s, ok := sched.(*lattice.Scheduler)
	if !ok || !s.VClustersOn() {
		return nil
	}
	log := s.Ownership()
	changes := make([]metrics.OwnershipChange, len(log))
	for i, o := range log {
		changes[i] = metrics.OwnershipChange{At: o.At, Node: o.Node, Holder: o.Holder}
	}
	return rec.Ownership(changes)
}

// newLattice builds the lattice scheduler from the resolved config.
func newLattice(cfg *replayConfig, c *sim.Cluster) (*lattice.Scheduler, error) {
	l := &cfg.Lattice
	ps, err := cfg.latticeProfiles()
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	lc := lattice.Config{
		Profiles:             ps,
		ReferenceWait:        sim.SecondsToTime(l.ReferenceWaitS),
		HalfLife:             sim.SecondsToTime(l.HalfLifeS),
		Tenants:              lattice.Tenants{Key: lattice.TenantKey(l.Tenants), Buckets: l.TenantBuckets},
		Usage:                lattice.UsageUnit(l.Usage),
		Shares:               l.Shares,
		TopologyAttribute:    l.TopologyAttribute,
		ConformanceAttribute: l.ConformanceAttribute,
		PowerBudgetW:         l.PowerBudgetKW * 1000,
		Cycle:                sim.SecondsToTime(l.CycleS),
		NoBackfill:           cfg.Backfill == string(policies.NoBackfill),
		Preemption:           l.Preemption,
		VClusters: lattice.VClusterConfig{Enabled: l.VClusters.Enabled, Attribute: l.VClusters.Attribute,
			BorrowPenalty: l.VClusters.BorrowPenalty},
	}
	if l.EnergyPrices != "" {
		if lc.Prices, err = lattice.LoadPrices(l.EnergyPrices); err != nil {
			return nil, fmt.Errorf("lattice.energy_prices: %w", err)
		}
	}
	s, err := lattice.New(c, lc)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// latticePaths resolves the lattice block's file paths (and a --profile
// file) relative to the --config file's directory.
func latticePaths(dir string, into *replayConfig) {
	if p := &into.Lattice.EnergyPrices; *p != "" && !filepath.IsAbs(*p) {
		*p = filepath.Join(dir, *p)
	}
	if p := &into.Lattice.ProfilesFile; *p != "" && !filepath.IsAbs(*p) {
		*p = filepath.Join(dir, *p)
	}
	if p := &into.Profile; *p != "" && isProfileFile(*p) && !filepath.IsAbs(*p) {
		*p = filepath.Join(dir, *p)
	}
}
