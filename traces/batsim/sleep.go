package batsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// propSleep is Batsim's sleep_pstates property, "sleep:switch_off:switch_on":
// the power state a sleeping host is in, and the two virtual power states a
// host passes through to fall asleep and to wake. Batsim charges a switch
// the time to compute one flop at the virtual state's speed, at that
// state's draw.
const propSleep = "sleep_pstates"

// sleepStates sets power's sleep draw and switches from the sleep_pstates
// value, the host's watt(age)_per_state value (may be empty) and its
// speeds, one per power state. OffW is the sleep state's idle draw; each
// switch lasts 1 flop / speed and draws the virtual state's AllCores value
// (all three values are equal in Batsim's platforms).
func sleepStates(power *sim.PowerModel, value, watts string, speeds []string) error {
	parts := splitList(value, ":")
	if len(parts) != 3 {
		return fmt.Errorf("%q: want sleep:switch_off:switch_on power state numbers", value)
	}
	var ps [3]int
	for i, s := range parts {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return fmt.Errorf("%q: %q is not a power state number", value, s)
		}
		if v >= len(speeds) {
			return fmt.Errorf("power state %d but the host lists %d speeds", v, len(speeds))
		}
		ps[i] = v
	}
	var times [3]sim.Time
	for i := 1; i < 3; i++ {
		flops, err := parseSpeed(speeds[ps[i]])
		if err != nil {
			return fmt.Errorf("speed of power state %d: %v", ps[i], err)
		}
		// A switch lasts one flop: 1/speed seconds, which a tiny speed
		// takes beyond what the clock holds.
		if times[i], err = sim.CheckSeconds(1 / flops); err != nil {
			return fmt.Errorf("speed of power state %d: a switch of %v", ps[i], err)
		}
	}
	var w [3]float64
	if watts != "" {
		for i, p := range ps {
			idle, all, err := pstateWatts(watts, p)
			if err != nil {
				return err
			}
			w[i] = all
			if i == 0 {
				w[i] = idle
			}
		}
	}
	power.OffW = w[0]
	power.SwitchOff = sim.PowerSwitch{Time: times[1], W: w[1]}
	power.SwitchOn = sim.PowerSwitch{Time: times[2], W: w[2]}
	if times[1] == 0 {
		power.SwitchOff.W = 0
	}
	if times[2] == 0 {
		power.SwitchOn.W = 0
	}
	return nil
}

// speedUnits are SimGrid's prefixes of flops.
var speedUnits = map[string]float64{"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24}

// parseSpeed reads a SimGrid speed ("100.0Mf", "0.16f", "1e9", "2Gflops")
// in flops per second.
func parseSpeed(s string) (float64, error) {
	num := strings.TrimSuffix(strings.TrimSuffix(s, "flops"), "f")
	unit := ""
	if num != s && len(num) > 0 {
		if _, ok := speedUnits[num[len(num)-1:]]; ok {
			unit = num[len(num)-1:]
			num = num[:len(num)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a positive speed", s)
	}
	return v * speedUnits[unit], nil
}
