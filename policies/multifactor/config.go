package multifactor

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/schedsim/schedsim/sim"
)

// Config is the multifactor: block of a run spec, and what ParseSlurmConf
// reads from slurm.conf:
//
//	multifactor:
//	  weights: {age: 1000, fairshare: 10000, job_size: 1000, partition: 1000, qos: 0}
//	  max_age_s: 1209600           # PriorityMaxAge; default 7 days
//	  decay_half_life_s: 1209600   # PriorityDecayHalfLife; 0: no decay; default 7 days
//	  favor_small: false           # PriorityFavorSmall
//	  shares_by: account           # or user: whose usage fair-share compares
//	  shares: {physics: 40, chem: 60}
//	  partition_priorities: {batch: 1, debug: 10}   # PriorityJobFactor
//	  partition_tiers: {batch: 1, debug: 1}         # PriorityTier
//	  default_partition: batch
//	  qos_priorities: {normal: 0, high: 100}
//
// or, with the Priority* settings and partitions from a slurm.conf:
//
//	multifactor:
//	  slurm_conf: slurm.conf
//	  shares: {physics: 40, chem: 60}
//	  qos_priorities: {normal: 0, high: 100}
type Config struct {
	// SlurmConf names a slurm.conf (relative to the run spec's directory)
	// whose Priority* settings and partitions are taken (Resolve); the
	// block then gives only shares_by, shares and qos_priorities, which
	// Slurm keeps in its accounting database.
	SlurmConf string  `yaml:"slurm_conf,omitempty"`
	Weights   Weights `yaml:"weights"`
	// MaxAgeS is PriorityMaxAge in seconds: the wait at which the age
	// factor reaches 1. Nil means Slurm's default, 7 days.
	MaxAgeS *float64 `yaml:"max_age_s,omitempty"`
	// DecayHalfLifeS is PriorityDecayHalfLife in seconds: past usage
	// counts half after this long. 0 means no decay; nil means Slurm's
	// default, 7 days.
	DecayHalfLifeS *float64 `yaml:"decay_half_life_s,omitempty"`
	// FavorSmall is PriorityFavorSmall: the smaller the job, the larger
	// its job size factor.
	FavorSmall bool `yaml:"favor_small,omitempty"`
	// SharesBy names the fair-share tenant: "account" (the job's Group,
	// the default) or "user".
	SharesBy string `yaml:"shares_by,omitempty"`
	// Shares are the tenants' raw shares (sacctmgr's Fairshare). A tenant
	// not listed holds 1 share, Slurm's default.
	Shares map[string]float64 `yaml:"shares,omitempty"`
	// PartitionPriorities is each partition's PriorityJobFactor; a
	// partition not listed has 0.
	PartitionPriorities map[string]int64 `yaml:"partition_priorities,omitempty"`
	// PartitionTiers is each partition's PriorityTier, which orders the
	// queue before the priority does; a partition not listed has 0.
	PartitionTiers map[string]int64 `yaml:"partition_tiers,omitempty"`
	// DefaultPartition is the partition of a job whose trace names none
	// (slurm.conf's Default=YES).
	DefaultPartition string `yaml:"default_partition,omitempty"`
	// QOSPriorities is each QOS's priority; a QOS not listed has 0.
	QOSPriorities map[string]int64 `yaml:"qos_priorities,omitempty"`
}

// Weights are the PriorityWeight* values: unsigned 32-bit integers in
// Slurm, 0 by default.
type Weights struct {
	Age       int64 `yaml:"age,omitempty"`
	FairShare int64 `yaml:"fairshare,omitempty"`
	JobSize   int64 `yaml:"job_size,omitempty"`
	Partition int64 `yaml:"partition,omitempty"`
	QOS       int64 `yaml:"qos,omitempty"`
}

// Slurm's defaults and limits.
const (
	// DefaultMaxAge and DefaultDecayHalfLife are 7-0, seven days.
	DefaultMaxAge        = 7 * 24 * 3600 * sim.Second
	DefaultDecayHalfLife = 7 * 24 * 3600 * sim.Second
	maxWeight            = math.MaxUint32 // PriorityWeight* are uint32
	maxPartitionValue    = 65533          // PriorityJobFactor, PriorityTier
	maxQOSPriority       = math.MaxUint32
	// maxSeconds bounds the time settings so that they fit sim.Time.
	maxSeconds = float64(math.MaxInt64/int64(sim.Second)) / 2
)

// Tenant keys of SharesBy.
const (
	ByAccount = "account"
	ByUser    = "user"
)

// MaxAge is PriorityMaxAge, the default when unset.
func (c *Config) MaxAge() sim.Time {
	if c.MaxAgeS == nil {
		return DefaultMaxAge
	}
	return sim.SecondsToTime(*c.MaxAgeS)
}

// DecayHalfLife is PriorityDecayHalfLife (0: no decay), the default when
// unset.
func (c *Config) DecayHalfLife() sim.Time {
	if c.DecayHalfLifeS == nil {
		return DefaultDecayHalfLife
	}
	return sim.SecondsToTime(*c.DecayHalfLifeS)
}

// Tenant returns the fair-share tenant of a job under c.SharesBy.
func (c *Config) Tenant(j *sim.Job) string {
	if c.SharesBy == ByUser {
		return j.User
	}
	return j.Group
}

// IsZero says whether the block is empty (so a run spec can refuse it
// with another queue order).
func (c *Config) IsZero() bool {
	return c.SlurmConf == "" && c.Weights == (Weights{}) && c.MaxAgeS == nil && c.DecayHalfLifeS == nil && !c.FavorSmall &&
		c.SharesBy == "" && len(c.Shares) == 0 && len(c.PartitionPriorities) == 0 && len(c.PartitionTiers) == 0 &&
		c.DefaultPartition == "" && len(c.QOSPriorities) == 0
}

// Validate reports every problem of c at once, one per line, each naming
// its key under multifactor.
func (c *Config) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("multifactor."+format, args...))
	}
	for _, w := range []struct {
		key string
		v   int64
	}{{"age", c.Weights.Age}, {"fairshare", c.Weights.FairShare}, {"job_size", c.Weights.JobSize},
		{"partition", c.Weights.Partition}, {"qos", c.Weights.QOS}} {
		if w.v < 0 || w.v > maxWeight {
			add("weights.%s: want an integer in 0…%d (PriorityWeight* is unsigned 32-bit), got %d", w.key, int64(maxWeight), w.v)
		}
	}
	for _, s := range []struct {
		key string
		v   *float64
	}{{"max_age_s", c.MaxAgeS}, {"decay_half_life_s", c.DecayHalfLifeS}} {
		if s.v != nil && (math.IsNaN(*s.v) || *s.v < 0 || *s.v > maxSeconds) {
			add("%s: want a number of seconds ≥ 0, got %s", s.key, sim.FormatNumber(*s.v))
		}
	}
	switch c.SharesBy {
	case "", ByAccount, ByUser:
	default:
		add("shares_by: want %s or %s, got %q", ByAccount, ByUser, c.SharesBy)
	}
	for _, name := range sortedKeys(c.Shares) {
		if v := c.Shares[name]; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			add("shares.%s: want a finite number ≥ 0, got %s", name, sim.FormatNumber(v))
		}
	}
	checkInts := func(key string, m map[string]int64, limit int64, what string) {
		for _, name := range sortedKeys(m) {
			if !validName(name) {
				add("%s: want %s names without blanks or commas, got %q", key, what, name)
			}
			if v := m[name]; v < 0 || v > limit {
				add("%s.%s: want an integer in 0…%d, got %d", key, name, limit, v)
			}
		}
	}
	checkInts("partition_priorities", c.PartitionPriorities, maxPartitionValue, "partition")
	checkInts("partition_tiers", c.PartitionTiers, maxPartitionValue, "partition")
	checkInts("qos_priorities", c.QOSPriorities, maxQOSPriority, "QOS")
	if c.DefaultPartition != "" && !validName(c.DefaultPartition) {
		add("default_partition: want one partition name, got %q", c.DefaultPartition)
	}
	if c.SlurmConf != "" {
		for _, s := range []struct {
			key string
			set bool
		}{{"weights", c.Weights != Weights{}}, {"max_age_s", c.MaxAgeS != nil}, {"decay_half_life_s", c.DecayHalfLifeS != nil},
			{"favor_small", c.FavorSmall}, {"partition_priorities", len(c.PartitionPriorities) > 0},
			{"partition_tiers", len(c.PartitionTiers) > 0}, {"default_partition", c.DefaultPartition != ""}} {
			if s.set {
				add("%s: slurm_conf gives it; set it in that file or here, not both", s.key)
			}
		}
	}
	return errors.Join(errs...)
}

// Resolve returns the configuration to run: c itself, or, when c names a
// slurm.conf, the settings read from that file (relative paths are taken
// from dir) with c's shares_by, shares and qos_priorities. notes lists the
// file's settings that are read but not modelled.
func (c *Config) Resolve(dir string) (resolved Config, notes []string, err error) {
	if err := c.Validate(); err != nil {
		return Config{}, nil, err
	}
	if c.SlurmConf == "" {
		return *c, nil, nil
	}
	path := c.SlurmConf
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	sc, err := ReadSlurmConf(path)
	if err != nil {
		return Config{}, nil, fmt.Errorf("multifactor.slurm_conf: %w", err)
	}
	resolved = sc.Config
	resolved.SharesBy, resolved.Shares, resolved.QOSPriorities = c.SharesBy, c.Shares, c.QOSPriorities
	return resolved, sc.Notes, resolved.Validate()
}

// validName says whether a partition or QOS name is one non-empty word
// (a job's partition list is comma-separated).
func validName(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// sortedKeys returns m's keys in order, so that problems and sums come in
// a fixed order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
