package transform

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// WalltimeKind is how a transformed job's walltime (its requested time)
// is set.
type WalltimeKind uint8

const (
	// AsTraced keeps the trace's walltime.
	AsTraced WalltimeKind = iota
	// Scaled multiplies the trace's walltime by the runtime factor, as
	// users would ask for more time for jobs that run longer.
	Scaled
	// Exact sets it to the job's (transformed) runtime: perfect requests.
	Exact
	// Times sets it to Factor × the job's (transformed) runtime.
	Times
)

// Walltime is a walltime model. The zero value keeps the trace's.
type Walltime struct {
	Kind   WalltimeKind
	Factor float64 // of Times, ≥ 1
}

// ParseWalltime reads a walltime model: traced (or ""), scaled, exact, or
// a number k ≥ 1 for k × runtime.
func ParseWalltime(s string) (Walltime, error) {
	switch strings.TrimSpace(s) {
	case "", "traced":
		return Walltime{}, nil
	case "scaled":
		return Walltime{Kind: Scaled}, nil
	case "exact":
		return Walltime{Kind: Exact}, nil
	}
	k, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return Walltime{}, fmt.Errorf("walltime model: want traced, scaled, exact or a factor k ≥ 1 (k × runtime), got %q", s)
	}
	w := Walltime{Kind: Times, Factor: k}
	return w, w.check()
}

// String is the model as ParseWalltime reads it.
func (w Walltime) String() string {
	switch w.Kind {
	case Scaled:
		return "scaled"
	case Exact:
		return "exact"
	case Times:
		return strconv.FormatFloat(w.Factor, 'g', -1, 64)
	}
	return "traced"
}

func (w Walltime) check() error {
	if w.Kind == Times && (!(w.Factor >= 1) || math.IsInf(w.Factor, 0)) {
		return fmt.Errorf("walltime model: a factor k × runtime needs a finite k ≥ 1 (a smaller one kills every job), got %s", sim.FormatNumber(w.Factor))
	}
	return nil
}

// before is the walltime as the runtime factor leaves it, before jitter:
// traced, or scaled with the runtime.
func (w Walltime) before(traced sim.Time, runtimeFactor float64) sim.Time {
	if w.Kind == Scaled && traced != sim.NoWalltime && !factorIsOne(runtimeFactor) {
		return scale(traced, runtimeFactor)
	}
	return traced
}

// after is the final walltime, from the final runtime for the models
// that follow it.
func (w Walltime) after(wt, runtime sim.Time) sim.Time {
	switch w.Kind {
	case Exact:
		return runtime
	case Times:
		return scale(runtime, w.Factor)
	}
	return wt
}
