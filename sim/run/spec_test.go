package run

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/lattice"
)

// TestFairnessTenantsFlag: the metrics' tenants follow the lattice block
// unless --tenants names another key; a bad key is refused.
func TestFairnessTenantsFlag(t *testing.T) {
	shares := map[string]float64{"t0": 1, "t1": 3}
	for _, c := range []struct {
		queue, flag, block string
		key                string
		buckets            int
		shares             bool
	}{
		{"fcfs", "", "", "", 0, false}, // "" → metrics' default, user
		{"fcfs", "group", "", "group", 0, false},
		{"lattice", "", "", "user", 4, true},
		{"lattice", "user", "", "user", 4, true},
		{"lattice", "", "queue", "queue", 4, true},
		{"lattice", "group", "queue", "group", 0, false},
	} {
		cfg := Default()
		cfg.Queue, cfg.Tenants = c.queue, c.flag
		if c.queue == "lattice" {
			*ArgsOf[lattice.Args](&cfg, "lattice") = lattice.Args{Tenants: c.block, TenantBuckets: 4, Shares: shares}
		}
		key, b, s := cfg.metricsTenants()
		if key != c.key || b != c.buckets || (s != nil) != c.shares {
			t.Errorf("%+v: got %q %d %v", c, key, b, s)
		}
	}
	cfg := Default()
	cfg.Tenants = "account"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--tenants: want user, group or queue") {
		t.Errorf("--tenants account: %v", err)
	}
}
