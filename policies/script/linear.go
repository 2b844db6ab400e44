package script

import (
	"fmt"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Work that grows with its input in one step. Starlark counts one step
// for x in l, s.count(y) or max(l), whatever their length, so a million
// steps of them could take hours. These builtins charge the step budget
// for the elements they go through (a string: one step per stepBytes
// bytes) before doing the work; the time budget (deadline.go) bounds what
// is left. guard.go rewrites x in y and x not in y into $in and $notin,
// and the methods of linearMethods into $.name calls, as it does for the
// growing operations.

// stepBytes is how many bytes of a string one charged step stands for:
// scanning them costs about what an interpreter step does.
const stepBytes = 64

const (
	opIn    = "$in"
	opNotIn = "$notin"
)

// linearMethods are the methods whose work grows with their receiver.
var linearMethods = map[string]bool{
	"count": true, "find": true, "rfind": true, "index": true, "rindex": true,
	"lower": true, "upper": true, "title": true, "capitalize": true,
	"strip": true, "lstrip": true, "rstrip": true, "elems": true, "codepoints": true,
	"startswith": true, "endswith": true, "remove": true,
}

// linearUniverse are the universe builtins that go through their first
// argument (the growing ones of growth.go charge steps too).
var linearUniverse = []string{"max", "min", "any", "all", "hash"}

// stepsFor is the steps of going through v once.
func stepsFor(v starlark.Value) uint64 {
	switch v := v.(type) {
	case starlark.String:
		return uint64(len(v)) / stepBytes
	case starlark.Bytes:
		return uint64(len(v)) / stepBytes
	case *starlark.Dict, *starlark.Set:
		return 0 // hashed: membership does not go through them
	case starlark.Sequence:
		return uint64(v.Len())
	case starlark.Iterable:
		if n := starlark.Len(v); n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// chargeSteps adds n steps to the call's count; past the step budget the
// call fails as the interpreter fails it.
func (s *Script) chargeSteps(n uint64) error {
	if n == 0 {
		return nil
	}
	th := s.thread
	if n >= s.cfg.StepBudget || th.Steps >= s.cfg.StepBudget-n {
		s.exceeded = true
		th.Cancel("step budget exceeded")
		return fmt.Errorf("step budget exceeded")
	}
	th.Steps += n
	return nil
}

// linearBuiltins adds $in, $notin, the linear methods and universe
// builtins to d.
func (s *Script) linearBuiltins(d starlark.StringDict) {
	b := func(name string, fn func(*starlark.Thread, *builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) {
		d[name] = &builtin{name: name, fn: fn}
	}
	for name, op := range map[string]syntax.Token{opIn: syntax.IN, opNotIn: syntax.NOT_IN} {
		b(name, func(_ *starlark.Thread, fn *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) != 2 || len(kwargs) > 0 {
				return nil, fmt.Errorf("%s: want 2 arguments, got %d", fn.Name(), len(args)+len(kwargs))
			}
			if err := s.chargeSteps(stepsFor(args[1])); err != nil {
				return nil, err
			}
			return starlark.Binary(op, args[0], args[1])
		})
	}
	for name := range linearMethods {
		b(methodPrefix+name, s.method(name, func(s *Script, recv starlark.Value, _ starlark.Tuple, _ []starlark.Tuple) float64 {
			return 0
		}))
	}
	for _, name := range linearUniverse {
		orig := starlark.Universe[name].(*starlark.Builtin)
		b(name, func(th *starlark.Thread, _ *builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				if err := s.chargeSteps(stepsFor(args[0])); err != nil {
					return nil, err
				}
			}
			return orig.CallInternal(th, args, kwargs)
		})
	}
}
