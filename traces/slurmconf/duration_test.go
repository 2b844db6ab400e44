package slurmconf

import (
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in        string
		secs      int64
		unlimited bool
	}{
		{"30", 30 * 60, false}, // a bare number counts minutes
		{"05:30", 5*60 + 30, false},
		{"01:02:03", 3723, false},
		{"2-00:00:00", 2 * 86400, false},
		{"1-12", 86400 + 12*3600, false},
		{"1-12:30", 86400 + 12*3600 + 30*60, false},
		{"3-04:05:06", 3*86400 + 4*3600 + 5*60 + 6, false},
		{"UNLIMITED", 0, true},
		{"infinite", 0, true},
		{"-1", 0, true},
	} {
		got, unl, err := ParseDuration(c.in)
		if err != nil || unl != c.unlimited || got != sim.Time(c.secs)*sim.Second {
			t.Errorf("%q = %v %v %v, want %d s unlimited=%v", c.in, got, unl, err, c.secs, c.unlimited)
		}
	}
	for _, bad := range []string{"", "1:2:3:4", "1-", "x", "1.5", "-5", "1-2-3", "10:", "9999999999", "99999-00:00:00"} {
		if _, _, err := ParseDuration(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
