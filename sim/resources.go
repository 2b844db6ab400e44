package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Amount is a resource quantity in thousandths of the resource's unit
// (1 cpu = 1000). Integer arithmetic keeps accounting exact: a million
// allocate/release cycles leave no drift.
type Amount int64

// Milli is the number of Amount steps in one unit.
const Milli Amount = 1000

// Units returns n whole units.
func Units(n int64) Amount { return Amount(n) * Milli }

// Float returns a in units.
func (a Amount) Float() float64 { return float64(a) / float64(Milli) }

// String prints a in units, exact ("2", "0.5", "-0.125"), without trailing
// zeros: integer arithmetic, so even amounts beyond float64's exact range
// print (and parse back) as they are.
func (a Amount) String() string {
	sign := ""
	u := uint64(a)
	if a < 0 {
		sign, u = "-", uint64(-a)
	}
	s := sign + strconv.FormatUint(u/uint64(Milli), 10)
	if f := u % uint64(Milli); f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%03d", f), "0")
	}
	return s
}

// ParseAmount reads a decimal number of units ("4", "0.25") into an Amount.
func ParseAmount(s string) (Amount, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 9e15 {
		return 0, fmt.Errorf("bad amount %q", s)
	}
	return Amount(math.Round(f * float64(Milli))), nil
}

// Quantity is an amount of one named resource.
type Quantity struct {
	Resource string // free-form name: cpu, mem, gpu, licence_x…
	Amount   Amount
}

// Get returns the amount of resource name in qs and whether it is listed.
func Get(qs []Quantity, name string) (Amount, bool) {
	for _, q := range qs {
		if q.Resource == name {
			return q.Amount, true
		}
	}
	return 0, false
}
