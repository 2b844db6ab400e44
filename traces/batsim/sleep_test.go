package batsim

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestSleepStates: medium_late's hosts have sleep_pstates "13:14:15".
// Power state 13 draws 9.75 W; switching off is pstate 14, 0.16393442623
// flops/s at 100.996721311 W: 1 / 0.16393442623 = 6.09999999998 s, 6.1 s
// to the µs; switching on is pstate 15, 0.00659978880676 flops/s at
// 125.1743849 W: 1 / 0.00659978880676 = 151.51999999996 s, 151.52 s.
func TestSleepStates(t *testing.T) {
	nodes, err := ReadPlatform(filepath.Join(sharedDir(t), "medium_late", "platform.xml"), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := sim.PowerModel{IdleW: 95, MaxW: 190.738, Resource: "host", OffW: 9.75,
		SwitchOff: sim.PowerSwitch{Time: 6_100_000, W: 100.996721311},
		SwitchOn:  sim.PowerSwitch{Time: 151_520_000, W: 125.1743849}}
	if nodes[0].Power != want {
		t.Errorf("got  %+v\nwant %+v", nodes[0].Power, want)
	}
}

// TestSleepStatesWithoutSleep: wattage_off alone is the sleep draw, and
// the switches are instant.
func TestSleepStatesOffOnly(t *testing.T) {
	xml := `<platform version="4.1"><zone id="z" routing="Full">
<host id="h" speed="1Gf"><prop id="wattage_per_state" value="90:180"/><prop id="wattage_off" value="7.5"/></host>
</zone></platform>`
	nodes, err := ParsePlatform("p.xml", []byte(xml), 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := nodes[0].Power; p.OffW != 7.5 || p.SwitchOn != (sim.PowerSwitch{}) || p.SwitchOff != (sim.PowerSwitch{}) {
		t.Errorf("power %+v", p)
	}
}

func TestSleepStatesErrors(t *testing.T) {
	for _, c := range []struct{ speed, sleep, want string }{
		{"1Gf, 1f, 2f", "0:1", `p.xml:2: field sleep_pstates: host "h": "0:1": want sleep:switch_off:switch_on`},
		{"1Gf, 1f, 2f", "0:1:5", "power state 5 but the host lists 3 speeds"},
		{"1Gf, 0f, 2f", "0:1:2", `speed of power state 1: "0f" is not a positive speed`},
		{"1Gf, 1f, 2f", "0:x:2", `"x" is not a power state number`},
		// A switch of one flop at 1e-20 flops/s would last 1e20 s, past
		// what the clock holds.
		{"1Gf, 1e-20f, 2f", "0:1:2", `p.xml:2: field sleep_pstates: host "h": speed of power state 1: a switch of 1e20 s is out of range`},
	} {
		xml := `<platform version="4.1"><zone id="z" routing="Full">
<host id="h" speed="` + c.speed + `"><prop id="sleep_pstates" value="` + c.sleep + `"/></host>
</zone></platform>`
		_, err := ParsePlatform("p.xml", []byte(xml), 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.sleep, err, c.want)
		}
	}
}

func TestParseSpeed(t *testing.T) {
	for s, want := range map[string]float64{"100.0Mf": 1e8, "0.5f": 0.5, "1e9": 1e9, "2Gflops": 2e9, "3kf": 3e3} {
		if got, err := parseSpeed(s); err != nil || got != want {
			t.Errorf("%s: %g, %v; want %g", s, got, err, want)
		}
	}
}
