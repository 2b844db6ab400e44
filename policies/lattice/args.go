package lattice

import (
	"fmt"
	"os"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Args are the lattice queue order's arguments as a run spec gives them:
// the weight profile (--profile) and the lattice: block.
type Args struct {
	// Profile is the weight profile: a built-in name, a profile YAML
	// file, or a profile of ProfilesFile (--profile; "": the default).
	// Specs also give it as a top-level profile: key.
	Profile        string  `yaml:"profile,omitempty"`
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
	VClusters VClusterArgs `yaml:"vclusters"`
	// Services are reactive allocations scaling with a load series
	// (ServiceArgs, autoscale.go).
	Services []ServiceArgs `yaml:"services,omitempty"`
	// Probe, when set, is called with the scheduler Build makes, so that
	// a driver of many runs (tune) can read what it measured once the
	// run is over. Not part of the spec.
	Probe func(*Scheduler) `yaml:"-"`
}

// VClusterArgs is the lattice block's vclusters: entry.
type VClusterArgs struct {
	Enabled       bool    `yaml:"enabled"`
	Attribute     string  `yaml:"attribute"`      // node attribute; default vcluster
	BorrowPenalty float64 `yaml:"borrow_penalty"` // subtracted from a borrowing job's score
}

// IsZero says whether the block sets nothing; run.yaml then leaves it out
// (yaml omitempty asks the value, hence the value receiver).
func (l Args) IsZero() bool {
	return l.Profile == "" && l.ReferenceWaitS == 0 && l.HalfLifeS == 0 && l.Tenants == "" && l.TenantBuckets == 0 && l.Usage == "" &&
		len(l.Shares) == 0 && l.TopologyAttribute == "" && l.ConformanceAttribute == "" && l.PowerBudgetKW == 0 &&
		l.EnergyPrices == "" && l.CycleS == 0 && len(l.QueueProfiles) == 0 && l.ProfilesFile == "" && !l.Preemption && l.VClusters == (VClusterArgs{}) &&
		len(l.Services) == 0
}

// WeightProfile is the profile the order ranks by (registry.Profiled).
func (l *Args) WeightProfile() *string { return &l.Profile }

// Paths are the block's file paths, for a loader that resolves them
// against the spec file's directory.
func (l *Args) Paths() []*string {
	ps := []*string{&l.EnergyPrices, &l.ProfilesFile}
	if IsProfileFile(l.Profile) {
		ps = append(ps, &l.Profile)
	}
	for i := range l.Services {
		ps = append(ps, &l.Services[i].Metric)
	}
	return ps
}

// IsProfileFile says whether a --profile value names a YAML file rather
// than a built-in profile.
func IsProfileFile(p string) bool {
	return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.ContainsRune(p, os.PathSeparator)
}

// Validate reports every problem of the block and the profile, each
// naming its key under lattice (the caller adds where it came from).
func (l *Args) Validate(profile string) []error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if _, err := l.Profiles(profile); err != nil {
		add("profile: %v", err)
	}
	switch l.Tenants {
	case "", "user", "group", "queue":
	default:
		add("tenants: want user, group or queue, got %q", l.Tenants)
	}
	switch l.Usage {
	case "", "node", "cpu":
	default:
		add("usage: want node or cpu, got %q", l.Usage)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"reference_wait_s", l.ReferenceWaitS}, {"half_life_s", l.HalfLifeS}, {"power_budget_kw", l.PowerBudgetKW}, {"cycle_s", l.CycleS},
		{"vclusters.borrow_penalty", l.VClusters.BorrowPenalty}} {
		if f.v < 0 {
			add("%s: must be ≥ 0", f.name)
		} else if _, err := sim.CheckSeconds(f.v); err != nil && f.name != "power_budget_kw" && f.name != "vclusters.borrow_penalty" {
			add("%s: %v", f.name, err)
		}
	}
	if l.TenantBuckets < 0 {
		add("tenant_buckets: must be ≥ 0")
	}
	if _, err := NewFairShare(Tenants{}, "", 0, l.Shares); err != nil {
		add("shares: %v", err)
	}
	if l.EnergyPrices != "" {
		if _, err := LoadPrices(l.EnergyPrices); err != nil {
			add("energy_prices: %v", err)
		}
	}
	errs = append(errs, validateServices(l.Services)...)
	return errs
}

// Profiles resolves the profile (a name, or a YAML file whose profile: it
// runs), the block's profiles file and its queue_profiles.
func (l *Args) Profiles(profile string) (*Profiles, error) {
	file, run := l.ProfilesFile, profile
	if run != "" && IsProfileFile(run) {
		if file != "" {
			return nil, fmt.Errorf("give a profile file in --profile or in lattice.profiles, not both")
		}
		file, run = run, ""
	}
	if file == "" {
		return NamedProfiles(run, l.QueueProfiles, nil)
	}
	pf, err := LoadProfileFile(file)
	if err != nil {
		return nil, err
	}
	if run != "" {
		pf.Run = run
	}
	return pf.Resolve(l.QueueProfiles)
}

// Build makes the lattice scheduler of a run.
func (l *Args) Build(c *sim.Cluster, profile string, noBackfill bool) (*Scheduler, error) {
	ps, err := l.Profiles(profile)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	lc := Config{
		Profiles:             ps,
		ReferenceWait:        sim.SecondsToTime(l.ReferenceWaitS),
		HalfLife:             sim.SecondsToTime(l.HalfLifeS),
		Tenants:              Tenants{Key: TenantKey(l.Tenants), Buckets: l.TenantBuckets},
		Usage:                UsageUnit(l.Usage),
		Shares:               l.Shares,
		TopologyAttribute:    l.TopologyAttribute,
		ConformanceAttribute: l.ConformanceAttribute,
		PowerBudgetW:         l.PowerBudgetKW * 1000,
		Cycle:                sim.SecondsToTime(l.CycleS),
		NoBackfill:           noBackfill,
		Preemption:           l.Preemption,
		VClusters:            VClusterConfig{Enabled: l.VClusters.Enabled, Attribute: l.VClusters.Attribute, BorrowPenalty: l.VClusters.BorrowPenalty},
	}
	if l.EnergyPrices != "" {
		if lc.Prices, err = LoadPrices(l.EnergyPrices); err != nil {
			return nil, fmt.Errorf("lattice.energy_prices: %w", err)
		}
	}
	if len(l.Services) > 0 {
		if lc.Services, err = resolveServices(l.Services); err != nil {
			return nil, err
		}
	}
	s, err := New(c, lc)
	if err == nil && l.Probe != nil {
		l.Probe(s)
	}
	return s, err
}

// MetricsTenants resolves the tenants of the metrics (tenants table, Jain
// columns) under the lattice queue. They follow the scheduler's tenants
// by default, so the fairness measured is the fairness the fair-share
// factor aims at: the key is the block's tenants unless the run names
// another (key), and the block's tenant_buckets and shares apply whenever
// the key is the block's.
func (l *Args) MetricsTenants(key string) (string, int, map[string]float64) {
	own := l.Tenants
	if own == "" {
		own = string(ByUser)
	}
	if key == "" {
		key = own
	}
	if key != own {
		return key, 0, nil
	}
	return key, l.TenantBuckets, l.Shares
}
