package clusterconfig

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestPowerDownFields reads off_w and the switches: a switch of 4 s and
// 400 J draws 400 / 4 = 100 W.
func TestPowerDownFields(t *testing.T) {
	in := `power: {idle_w: 95, max_w: 190, off_w: 9.75, switch_off_s: 6.1, switch_off_j: 610, switch_on_s: 4, switch_on_j: 400}
nodes:
  - {name: a, resources: {cpu: 1}}
`
	nodes, err := Parse([]byte(in), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := sim.PowerModel{IdleW: 95, MaxW: 190, OffW: 9.75,
		SwitchOff: sim.PowerSwitch{Time: 6_100_000, W: 610 / 6.1}, SwitchOn: sim.PowerSwitch{Time: 4 * sim.Second, W: 100}}
	if nodes[0].Power != want {
		t.Errorf("got %+v\nwant %+v", nodes[0].Power, want)
	}
}

func TestPowerDownErrors(t *testing.T) {
	in := `power: {idle_w: 95, max_w: 190, off_w: -1, switch_on_j: 5}
nodes:
  - {name: a, resources: {cpu: 1}}
`
	_, err := Parse([]byte(in), "t.yaml")
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"t.yaml:1: power.off_w: must be ≥ 0", "t.yaml:1: power.switch_on_j: needs switch_on_s > 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestPowerDownWatts: a switch may give its draw instead of its energy,
// not both.
func TestPowerDownWatts(t *testing.T) {
	nodes, err := Parse([]byte("power: {idle_w: 1, max_w: 2, switch_on_s: 3, switch_on_w: 7}\nnodes: [{name: a, resources: {cpu: 1}}]\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := nodes[0].Power.SwitchOn; got != (sim.PowerSwitch{Time: 3 * sim.Second, W: 7}) {
		t.Errorf("switch on %+v", got)
	}
	_, err = Parse([]byte("power: {idle_w: 1, max_w: 2, switch_on_s: 3, switch_on_w: 7, switch_on_j: 21}\nnodes: [{name: a, resources: {cpu: 1}}]\n"), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), "give switch_on_j or switch_on_w, not both") {
		t.Errorf("got %v", err)
	}
}

// A switch duration beyond what the clock can hold is an error naming its
// line and field, not a wrap-around to an instant switch.
func TestSwitchSecondsOutOfRange(t *testing.T) {
	in := "power:\n  idle_w: 95\n  max_w: 190\n  switch_on_s: 1e13\n  switch_off_s: \"9e12\"\nnodes:\n  - {name: a, resources: {cpu: 1}}\n"
	_, err := Parse([]byte(in), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), "t.yaml:4: power.switch_on_s: 10000000000000 s is out of range (at most 9000000000000 s either way)") {
		t.Errorf("err = %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "switch_off_s") {
		t.Errorf("9e12 s is within range: %v", err)
	}
}
