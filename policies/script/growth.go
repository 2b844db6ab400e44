package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The builtins behind the memory budget (memory.go). The operator ones
// have names a script cannot write ($add): guard.go puts calls to them
// where the script has x + y, x * y, x % y and the augmented assignments;
// the others replace the universe builtins and string methods of the same
// name. Each charges the size of what the real operation will build, then
// does it.

// Names of the operator builtins guard.go calls.
const (
	opAdd        = "$add"
	opMul        = "$mul"
	opMod        = "$mod"
	opInplaceAdd = "$iadd" // x += y: charges, then returns y
	opInplaceMul = "$imul"
	opInplaceMod = "$imod"
)

// methodPrefix prefixes the builtins that stand for a method call:
// recv.join(args) becomes $.join(recv, args).
const methodPrefix = "$."

// growingMethods are the methods whose result can be far larger than
// their receiver and arguments, with what they build.
var growingMethods = map[string]func(s *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64{
	"join":       joinCost,
	"replace":    replaceCost,
	"format":     formatCost,
	"split":      splitCost,
	"rsplit":     rsplitCost,
	"splitlines": splitlinesCost,
	"extend":     extendCost,
}

// growingUniverse are the universe builtins that can build a value far
// larger than their arguments (a list from a range, the text of a list
// that holds one string many times), with the cost of one element of
// what they build (0: the cost is the printed size).
var growingUniverse = map[string]float64{
	"str":       0,
	"repr":      0,
	"print":     0,
	"fail":      0,
	"list":      valueSize,
	"tuple":     valueSize,
	"sorted":    valueSize,
	"reversed":  valueSize,
	"set":       3 * valueSize,
	"enumerate": 4 * valueSize,
	"zip":       4 * valueSize,
}

// growthBuiltins adds the operator, universe and method builtins to d.
func (s *Script) growthBuiltins(d starlark.StringDict) {
	b := func(name string, fn func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
		d[name] = &builtin{name: name, fn: fn}
	}
	b(opAdd, s.binary(syntax.PLUS, false))
	b(opMul, s.binary(syntax.STAR, false))
	b(opMod, s.binary(syntax.PERCENT, false))
	b(opInplaceAdd, s.binary(syntax.PLUS, true))
	b(opInplaceMul, s.binary(syntax.STAR, true))
	b(opInplaceMod, s.binary(syntax.PERCENT, true))
	for name, per := range growingUniverse {
		orig := starlark.Universe[name].(*starlark.Builtin)
		b(name, s.universe(orig, per))
	}
	for name, cost := range growingMethods {
		b(methodPrefix+name, s.method(name, cost))
	}
}

// binary is x op y, charged: the op's result, or (inplace) y once the
// growth of x op= y is charged, for the augmented assignment to apply.
func (s *Script) binary(op syntax.Token, inplace bool) func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, fmt.Errorf("%s: want 2 arguments, got %d", fn.Name(), len(args)+len(kwargs))
		}
		x, y := args[0], args[1]
		var cost float64
		switch op {
		case syntax.PLUS:
			if _, ok := x.(*starlark.List); ok && inplace {
				if n := starlark.Len(y); n > 0 {
					cost = float64(n) * valueSize // += extends the list
				}
			} else {
				cost = concatCost(x, y)
			}
		case syntax.STAR:
			cost = repeatCost(x, y)
		case syntax.PERCENT:
			if f, ok := x.(starlark.String); ok {
				cost = float64(len(f)) + s.sizeOfStrs(y)
			}
		}
		if !s.charge(cost) {
			return nil, s.overBudget(cost, fmt.Sprintf("%s %s %s", x.Type(), op, y.Type()))
		}
		if inplace {
			return y, nil
		}
		return starlark.Binary(op, x, y)
	}
}

// universe wraps a universe builtin: per > 0 charges per element of its
// first argument's length, per == 0 the printed size of its arguments.
func (s *Script) universe(orig *starlark.Builtin, per float64) func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(th *starlark.Thread, _ *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var cost float64
		if per == 0 {
			cost = s.sizeOfStrs(args...)
		} else if orig.Name() == "zip" {
			cost = zipCost(args)
		} else if len(args) > 0 {
			if n := starlark.Len(args[0]); n > 0 {
				cost = float64(n) * per
			}
		}
		steps := uint64(cost / valueSize)
		if per == 0 {
			steps = uint64(cost / stepBytes)
		}
		if !s.charge(cost) {
			return nil, s.overBudget(cost, orig.Name()+"()")
		}
		if err := s.chargeSteps(steps); err != nil {
			return nil, err
		}
		return orig.CallInternal(th, args, kwargs)
	}
}

// zipCost is what zip(args) builds: as many tuples as its shortest
// argument has elements.
func zipCost(args starlark.Tuple) float64 {
	if len(args) == 0 {
		return 0
	}
	n := -1
	for _, a := range args {
		l := starlark.Len(a)
		if l < 0 {
			continue // an iterable without a length: the others bound it
		}
		if n < 0 || l < n {
			n = l
		}
	}
	if n <= 0 {
		return 0
	}
	return float64(n) * float64(len(args)+3) * valueSize
}

// method is recv.name(args...) with args[0] the receiver, charged by cost
// when the receiver has the method (otherwise Starlark's own error).
func (s *Script) method(name string, cost func(*Script, starlark.Value, starlark.Tuple, []starlark.Tuple) float64) func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(th *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, fmt.Errorf("%s: missing the receiver", fn.Name())
		}
		recv := args[0]
		h, ok := recv.(starlark.HasAttrs)
		var m starlark.Value
		if ok {
			var err error
			if m, err = h.Attr(name); err != nil {
				return nil, err
			}
		}
		if m == nil {
			return nil, fmt.Errorf("%s has no .%s field or method", recv.Type(), name)
		}
		rest := args[1:]
		steps := stepsFor(recv)
		if (name == "join" || name == "extend") && len(rest) > 0 {
			steps += stepsFor(rest[0])
		}
		if c := cost(s, recv, rest, kwargs); !s.charge(c) {
			return nil, s.overBudget(c, recv.Type()+"."+name+"()")
		}
		if err := s.chargeSteps(steps); err != nil {
			return nil, err
		}
		return starlark.Call(th, m, rest, kwargs)
	}
}

// arg is the argument at position i or named name, nil when absent.
func arg(args starlark.Tuple, kwargs []starlark.Tuple, i int, name string) starlark.Value {
	if i < len(args) {
		return args[i]
	}
	for _, kv := range kwargs {
		if k, ok := kv[0].(starlark.String); ok && string(k) == name {
			return kv[1]
		}
	}
	return nil
}

// joinCost is sep.join(iterable): the strings joined and the separators
// between them, counted until past the budget.
func joinCost(s *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	sep, ok := recv.(starlark.String)
	it, _ := arg(args, kwargs, 0, "elements").(starlark.Iterable)
	if !ok || it == nil {
		return 0
	}
	limit := s.strLimit()
	var total float64
	iter := it.Iterate()
	defer iter.Done()
	var e starlark.Value
	for n := 0; total <= limit && iter.Next(&e); n++ {
		str, ok := e.(starlark.String)
		if !ok {
			break // join fails on it
		}
		if n > 0 {
			total += float64(len(sep))
		}
		total += float64(len(str))
	}
	return total
}

// replaceCost is s.replace(old, new[, count]): s with count (or every)
// occurrence of old swapped for new.
func replaceCost(_ *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	str, ok1 := recv.(starlark.String)
	old, ok2 := arg(args, kwargs, 0, "old").(starlark.String)
	repl, ok3 := arg(args, kwargs, 1, "new").(starlark.String)
	if !ok1 || !ok2 || !ok3 {
		return 0
	}
	grow := float64(len(repl)) - float64(len(old))
	if grow <= 0 {
		return float64(len(str))
	}
	n := float64(strings.Count(string(str), string(old)))
	if c, ok := arg(args, kwargs, 2, "count").(starlark.Int); ok {
		if k, ok := c.Int64(); ok && k >= 0 && float64(k) < n {
			n = float64(k)
		}
	}
	return float64(len(str)) + n*grow
}

// formatCost is f.format(args...): the format and the printed arguments,
// each of which it may print more than once ("{0}{0}"); counting each
// reference would need parsing f, so the arguments count once per brace
// pair.
func formatCost(s *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	f, ok := recv.(starlark.String)
	if !ok {
		return 0
	}
	refs := float64(strings.Count(string(f), "{"))
	if refs == 0 {
		return float64(len(f))
	}
	vals := append(starlark.Tuple(nil), args...)
	for _, kv := range kwargs {
		vals = append(vals, kv[1])
	}
	biggest := 0.0
	limit := s.strLimit()
	for _, v := range vals {
		biggest = max(biggest, sizeOfStr(v, limit))
	}
	return float64(len(f)) + refs*biggest
}

// splitCost is s.split(sep, maxsplit) or rsplit: a list of the pieces.
// Without a separator (runs of whitespace) there are at most half as many
// pieces as bytes, plus one.
func splitCost(_ *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	str, ok := recv.(starlark.String)
	if !ok {
		return 0
	}
	pieces := float64(len(str))/2 + 1
	if sep, ok := arg(args, kwargs, 0, "sep").(starlark.String); ok && sep != "" {
		pieces = float64(strings.Count(string(str), string(sep))) + 1
	}
	if m, ok := arg(args, kwargs, 1, "maxsplit").(starlark.Int); ok {
		if k, ok := m.Int64(); ok && k >= 0 && float64(k+1) < pieces {
			pieces = float64(k + 1)
		}
	}
	return pieces * pieceSize
}

// rsplitCost is s.rsplit(sep, maxsplit): split's pieces, except that
// without a separator go.starlark.net reserves room for maxsplit+1 pieces
// before it looks at the string, so "a".rsplit(None, 10**9) would take
// 16 GB at once.
func rsplitCost(s *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	cost := splitCost(s, recv, args, kwargs)
	if sep := arg(args, kwargs, 0, "sep"); sep != nil && sep != starlark.None {
		return cost
	}
	if m, ok := arg(args, kwargs, 1, "maxsplit").(starlark.Int); ok {
		if k, ok := m.Int64(); ok && k >= 0 {
			return max(cost, float64(k+1)*valueSize)
		}
	}
	return cost
}

// splitlinesCost is s.splitlines(): a list of the lines.
func splitlinesCost(_ *Script, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) float64 {
	str, ok := recv.(starlark.String)
	if !ok {
		return 0
	}
	return float64(strings.Count(string(str), "\n")+strings.Count(string(str), "\r")+1) * pieceSize
}

// extendCost is l.extend(iterable): one element per element of iterable.
func extendCost(_ *Script, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) float64 {
	if _, ok := recv.(*starlark.List); !ok {
		return 0
	}
	if it := arg(args, kwargs, 0, "x"); it != nil {
		if n := starlark.Len(it); n > 0 {
			return float64(n) * valueSize
		}
	}
	return 0
}
