package multifactor

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
)

// The block documented on Config decodes strictly into what it says.
func TestConfigYAML(t *testing.T) {
	const block = `
weights: {age: 1000, fairshare: 10000, job_size: 1000, partition: 1000, qos: 0}
max_age_s: 1209600
decay_half_life_s: 0
favor_small: true
shares_by: user
shares: {alice: 40, bob: 60}
partition_priorities: {batch: 1, debug: 10}
partition_tiers: {batch: 1, debug: 2}
default_partition: batch
qos_priorities: {normal: 0, high: 100}
`
	var got Config
	dec := yaml.NewDecoder(bytes.NewReader([]byte(block)))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := Config{
		Weights:             Weights{Age: 1000, FairShare: 10000, JobSize: 1000, Partition: 1000},
		MaxAgeS:             seconds(1209600),
		DecayHalfLifeS:      seconds(0),
		FavorSmall:          true,
		SharesBy:            ByUser,
		Shares:              map[string]float64{"alice": 40, "bob": 60},
		PartitionPriorities: map[string]int64{"batch": 1, "debug": 10},
		PartitionTiers:      map[string]int64{"batch": 1, "debug": 2},
		DefaultPartition:    "batch",
		QOSPriorities:       map[string]int64{"normal": 0, "high": 100},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	if got.IsZero() || !(&Config{}).IsZero() || (&Config{MaxAgeS: seconds(0)}).IsZero() {
		t.Error("IsZero: want false for the block and for max_age_s: 0 alone, true for the zero Config")
	}
	// Unset times are Slurm's defaults; 0 half-life is no decay.
	if got.MaxAge() != 14*86400*sim.Second || got.DecayHalfLife() != 0 || (&Config{}).MaxAge() != DefaultMaxAge || (&Config{}).DecayHalfLife() != DefaultDecayHalfLife {
		t.Errorf("max age %v, half-life %v", got.MaxAge(), got.DecayHalfLife())
	}
	j := &sim.Job{Group: "acct", User: "usr"}
	if (&Config{}).Tenant(j) != "acct" || got.Tenant(j) != "usr" {
		t.Error("tenant: want the account by default, the user under shares_by: user")
	}
}

// Validate reports every problem at once, each under its key.
func TestValidateReportsEveryProblem(t *testing.T) {
	c := Config{
		Weights:             Weights{Age: -1, QOS: 1 << 33},
		MaxAgeS:             seconds(-5),
		SharesBy:            "group",
		Shares:              map[string]float64{"A": -1},
		PartitionPriorities: map[string]int64{"p": 70000},
		PartitionTiers:      map[string]int64{"": 1},
		QOSPriorities:       map[string]int64{"q": -2},
		DefaultPartition:    "a,b",
	}
	err := c.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"multifactor.weights.age:", "multifactor.weights.qos:", "multifactor.max_age_s:", "multifactor.shares_by:",
		"multifactor.shares.A:", "multifactor.partition_priorities.p:", `multifactor.partition_tiers: want partition names without blanks or commas, got ""`,
		"multifactor.qos_priorities.q:", "multifactor.default_partition:",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 9 {
		t.Errorf("%d problems reported, want 9:\n%v", n, err)
	}
	if err := (&Config{}).Validate(); err != nil {
		t.Errorf("the zero config: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "multifactor.") {
		t.Errorf("problems not named under multifactor: %v", err)
	}
}
