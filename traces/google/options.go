package google

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Options tune the readers.
type Options struct {
	traces.Options
	// Scale multiplies the trace's normalised amounts (1 = the largest
	// machine of the trace) into the units the replay uses. The zero value
	// means DefaultScale.
	Scale Scale
	// Lookahead is how far past a task's submit the second pass reads
	// before it must know how the task ran; attempts that take longer
	// (from submit to their end) are indexed by the first pass. It trades
	// the first pass's index (attempts longer than Lookahead) against the
	// second pass's window (attempts submitted in the last Lookahead).
	// Results do not depend on it. Zero means DefaultLookahead.
	Lookahead sim.Time
}

// DefaultLookahead is Options.Lookahead's default: one hour.
const DefaultLookahead = 3600 * sim.Second

// Scale maps normalised amounts to the units of the replay: a request of
// 0.0625 cpu with CPU = 64 asks for 4 cpu. A factor ≤ 0 leaves the
// resource out (neither requested nor offered). Amounts are exact to a
// thousandth of the scaled unit (sim.Amount), rounded to the nearest,
// ties to even.
type Scale struct {
	CPU, Mem, Disk float64
}

// DefaultScale keeps the normalised units for cpu and mem and leaves disk
// out: the 2011 machine table gives no disk capacity and the 2019 trace no
// disk at all.
var DefaultScale = Scale{CPU: 1, Mem: 1}

// ParseScale reads "cpu=64,mem=256,disk=0"; resources not named keep
// DefaultScale's factor.
func ParseScale(s string) (Scale, error) {
	sc := DefaultScale
	if strings.TrimSpace(s) == "" {
		return sc, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return sc, fmt.Errorf("scale %q: want resource=factor, e.g. cpu=64,mem=256", part)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 1e9 {
			return sc, fmt.Errorf("scale %q: factor must be a number in [0, 1e9]", part)
		}
		switch strings.TrimSpace(k) {
		case "cpu":
			sc.CPU = f
		case "mem":
			sc.Mem = f
		case "disk":
			sc.Disk = f
		default:
			return sc, fmt.Errorf("scale %q: unknown resource (known: cpu, mem, disk)", part)
		}
	}
	return sc, nil
}

func (o *Options) defaults() {
	if o.Scale == (Scale{}) {
		o.Scale = DefaultScale
	}
	if o.Lookahead <= 0 {
		o.Lookahead = DefaultLookahead
	}
}

// amount scales a normalised value into a sim.Amount.
func amount(v, factor float64) sim.Amount {
	return sim.Amount(math.RoundToEven(v * factor * float64(sim.Milli)))
}

// request is a task's per-task request in the replay's units.
func (s Scale) request(cpu, mem, disk float64) []sim.Quantity {
	q := make([]sim.Quantity, 0, 3)
	if s.CPU > 0 {
		q = append(q, sim.Quantity{Resource: "cpu", Amount: amount(cpu, s.CPU)})
	}
	if s.Mem > 0 {
		q = append(q, sim.Quantity{Resource: "mem", Amount: amount(mem, s.Mem)})
	}
	if s.Disk > 0 {
		q = append(q, sim.Quantity{Resource: "disk", Amount: amount(disk, s.Disk)})
	}
	return q
}

// capacity is a machine's capacity in the replay's units. The traces
// give no disk capacity, so every machine offers the largest machine's
// disk (normalised 1) when disk is scaled in.
func (s Scale) capacity(cpu, mem float64) []sim.Quantity {
	return s.request(cpu, mem, 1)
}
