package script

import (
	"errors"
	"fmt"
	"math"

	"go.starlark.net/starlark"
)

// The memory budget. The step budget bounds time, but one Starlark step
// can build a value of any size ("x" * 10**9, s + s forty times over,
// "".join([s] * n)), and a Go program that runs out of memory dies with a
// fatal error no recover catches, taking a whole sweep with it. go.starlark.net
// has no allocation accounting, so every operation that can build a value
// larger than its operands in one step goes through a builtin that first
// charges the size of what it is about to build against the call's budget
// (guard.go rewrites the operators into calls to these; the universe
// builtins and string methods that can grow a value are replaced by
// wrappers). What is left grows by at most a few Values per step (an append,
// a comprehension's element, a dict entry), so the step budget bounds it:
// the default million steps cannot build more than a few tens of MiB that
// way.
//
// The budget is cumulative: every charged allocation counts, even one that
// is garbage a moment later. That overestimates the peak, never
// underestimates it, and it does not depend on when the collector runs, so
// the same inputs give the same verdict.

// errMemoryBudget marks the error of a call that would exceed its memory
// budget.
var errMemoryBudget = errors.New("memory budget exceeded")

// valueSize is what one element of a list or tuple costs: a Starlark Value
// is a Go interface, two words.
const valueSize = 16

// pieceSize is what one string of a list that split() builds costs: its
// element and the boxed string header.
const pieceSize = valueSize + 16

// maxReprDepth is how deep sizeOfStr looks into nested containers; deeper
// levels (a list that contains itself, which Starlark prints as [...])
// count as a few bytes.
const maxReprDepth = 64

// charge books n bytes, or reports false, booking nothing, when that
// would take the call over its budget.
func (s *Script) charge(n float64) bool {
	if n <= 0 {
		return true
	}
	if n > float64(s.memBudget)-float64(s.memUsed) {
		return false
	}
	s.memUsed += uint64(n)
	return true
}

// overBudget is the error of an operation, described by what, that would
// have allocated n bytes over the budget.
func (s *Script) overBudget(n float64, what string) error {
	return fmt.Errorf("%w: %s would allocate about %s with %s of the call's %s already used (memory_budget_mib)",
		errMemoryBudget, what, formatBytes(n), formatBytes(float64(s.memUsed)), formatBytes(float64(s.memBudget)))
}

// formatBytes prints n bytes with a binary unit.
func formatBytes(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", n)
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}

// sizeOf is the size of the data of a string, bytes, list or tuple value
// (what copying it costs), 0 for other values.
func sizeOf(v starlark.Value) float64 {
	switch v := v.(type) {
	case starlark.String:
		return float64(len(v))
	case starlark.Bytes:
		return float64(len(v))
	case *starlark.List:
		return float64(v.Len()) * valueSize
	case starlark.Tuple:
		return float64(len(v)) * valueSize
	}
	return 0
}

// intBytes is the size of an int's magnitude in bytes; small ints (those
// that fit in 64 bits) count 0: they allocate nothing that grows.
func intBytes(i starlark.Int) float64 {
	if _, ok := i.Int64(); ok {
		return 0
	}
	return float64(i.BigInt().BitLen()) / 8
}

// sizeOfStr estimates the length of str(v) or repr(v), stopping early
// once it passes limit (the result is then some number above limit). It
// looks inside lists, tuples, dicts and sets, whose printed form may be
// far larger than the values themselves ([s] * n prints s n times).
func sizeOfStr(v starlark.Value, limit float64) float64 {
	var total float64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if total > limit {
			return
		}
		if depth > maxReprDepth {
			total += 5
			return
		}
		switch v := v.(type) {
		case starlark.String:
			total += float64(len(v)) + 2
		case starlark.Bytes:
			total += 4*float64(len(v)) + 3
		case starlark.Int:
			total += 20 + intBytes(v)*2.5 // decimal digits per byte ≈ 2.41
		case starlark.Float, starlark.Bool, starlark.NoneType:
			total += 25
		case *starlark.List:
			total += 2
			for i := 0; i < v.Len() && total <= limit; i++ {
				total += 2
				walk(v.Index(i), depth+1)
			}
		case starlark.Tuple:
			total += 3
			for _, e := range v {
				if total > limit {
					return
				}
				total += 2
				walk(e, depth+1)
			}
		case starlark.IterableMapping:
			total += 2
			for _, kv := range v.Items() {
				if total > limit {
					return
				}
				total += 4
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
			}
		case *starlark.Set:
			total += 5
			iter := v.Iterate()
			var e starlark.Value
			for total <= limit && iter.Next(&e) {
				total += 2
				walk(e, depth+1)
			}
			iter.Done()
		default:
			// Functions, builtins and the package's own objects print
			// in a size bounded by the cluster and the script.
			total += float64(len(v.String()))
		}
	}
	walk(v, 0)
	return total
}

// strLimit is how far sizeOfStr need look: past what is left of the
// budget the verdict is known.
func (s *Script) strLimit() float64 {
	return float64(s.memBudget) - float64(s.memUsed) + 1
}

// sizeOfStrs is sizeOfStr summed over values.
func (s *Script) sizeOfStrs(vs ...starlark.Value) float64 {
	var total float64
	limit := s.strLimit()
	for _, v := range vs {
		total += sizeOfStr(v, limit-total)
		if total > limit {
			break
		}
	}
	return total
}

// repeatCost is what x * y builds, 0 when it is not a repetition or a
// product of big ints.
func repeatCost(x, y starlark.Value) float64 {
	if n, ok := y.(starlark.Int); ok {
		if xi, ok := x.(starlark.Int); ok {
			if intBytes(xi) == 0 && intBytes(n) == 0 {
				return 0
			}
			return intBytes(xi) + intBytes(n) + 8
		}
		return sizeOf(x) * intFloat(n)
	}
	if n, ok := x.(starlark.Int); ok {
		return sizeOf(y) * intFloat(n)
	}
	return 0
}

// intFloat is i as a float, 0 when negative (a repetition by a negative
// count is empty).
func intFloat(i starlark.Int) float64 {
	f := float64(i.Float())
	if f < 0 || math.IsNaN(f) {
		return 0
	}
	return f
}

// concatCost is what x + y builds when both are strings, bytes, lists or
// tuples, 0 otherwise (numbers, or an error Starlark reports).
func concatCost(x, y starlark.Value) float64 {
	if sx, sy := sizeOf(x), sizeOf(y); sx+sy > 0 {
		return sx + sy
	}
	return 0
}
