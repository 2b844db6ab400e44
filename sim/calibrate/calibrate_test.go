package calibrate

import (
	"fmt"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
)

func TestDetectResolution(t *testing.T) {
	s := sim.Second
	var minutes, seconds []sim.Time
	for i := range 200 {
		minutes = append(minutes, sim.Time(i%7)*60*s)
		seconds = append(seconds, sim.Time(i*7+1)*s)
	}
	if r := detectResolution(minutes); r != 60 {
		t.Errorf("whole minutes: %g, want 60", r)
	}
	if r := detectResolution(seconds); r != 1 {
		t.Errorf("whole seconds: %g, want 1", r)
	}
	if r := detectResolution(make([]sim.Time, 500)); r != 0 {
		t.Errorf("all zero: %g, want 0 (nothing to tell)", r)
	}
}

// TestAvailabilityAxisValues reads the availability axis's rules and
// refuses bad ones.
func TestAvailabilityAxisValues(t *testing.T) {
	for v, want := range map[string]string{"on": "0.2/3600", "0.3/2": "0.3/7200", "0.1/0.5": "0.1/1800"} {
		r, on, err := availabilityRule(v)
		if err != nil || !on {
			t.Errorf("%s: %v, on %v", v, err, on)
			continue
		}
		if got := fmt.Sprintf("%g/%g", r.BusyShare, r.MinDuration.Seconds()); got != want {
			t.Errorf("%s: rule %s, want %s", v, got, want)
		}
	}
	if r, on, err := availabilityRule("off"); r != nil || on || err != nil {
		t.Errorf("off: %v %v %v", r, on, err)
	}
	for _, bad := range []string{"0/1", "1/1", "0.2/0", "0.2", "x/1", "0.2/-1"} {
		if _, _, err := availabilityRule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if vals := axisValueText(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "submit"}, {Kind: yaml.ScalarNode, Value: "end"}}}); vals != "[submit, end]" {
		t.Errorf("list value prints %q", vals)
	}
}
