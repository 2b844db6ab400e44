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

// String prints a in units, exact ("2", "0.5").
func (a Amount) String() string {
	if a%Milli == 0 {
		return strconv.FormatInt(int64(a/Milli), 10)
	}
	s := strconv.FormatFloat(a.Float(), 'f', 3, 64)
	return strings.TrimRight(s, "0")
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
