package script

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"go.starlark.net/starlark"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// Filter is a script's filter(task, node) as a placement.Filter: True
// keeps the node, False rejects it, a string rejects it with that reason
// (shown in the rule's name, so the pipeline's "0/N nodes: …" explanation
// carries it). Anything else, or a failing call, is a script error: the
// filter then keeps every candidate and the Decider reports the error.
//
// It is placement.NodeLocal (as localFilter) only when the script is pure
// (purity.go) and has no instance_placement: a script may read anything
// (the job's name, rand, other members), and the score index must then not
// cache it.
type Filter struct {
	s       *Script
	keep    []bool
	reasons []string // distinct reasons of the last Keep, first seen first
}

// Name is "script filter", followed by the reasons the last Keep gave.
func (f *Filter) Name() string {
	if len(f.reasons) == 0 {
		return "script filter"
	}
	const most = 3
	if len(f.reasons) > most {
		return "script filter: " + strings.Join(f.reasons[:most], "; ") + "; …"
	}
	return "script filter: " + strings.Join(f.reasons, "; ")
}

// Keep implements placement.Filter.
func (f *Filter) Keep(l *placement.Ledger, t *placement.Task, cands []int32) []int32 {
	s := f.s
	f.reasons = f.reasons[:0]
	if s.hasPending(t) {
		return cands
	}
	s.bind(l, t, EntryFilter, cands, -1)
	task := s.taskValue(t)
	if cap(f.keep) < len(cands) {
		f.keep = make([]bool, len(cands))
	}
	keep := f.keep[:len(cands)]
	for i, n := range cands {
		s.cur.node, s.cur.seeded = int(n), false
		v, err := s.call(s.filter, task, nodeKind.view(s.env, int(n)))
		if err != nil {
			s.fail(t, err)
			return cands
		}
		switch v := v.(type) {
		case starlark.Bool:
			keep[i] = bool(v)
		case starlark.String:
			keep[i] = false
			f.note(string(v))
		default:
			s.fail(t, s.badReturn(s.filter, "a bool or a string", v))
			return cands
		}
	}
	k := 0
	for i, n := range cands {
		if keep[i] {
			cands[k] = n
			k++
		}
	}
	return cands[:k]
}

func (f *Filter) note(reason string) {
	if reason == "" {
		reason = "rejected"
	}
	for _, r := range f.reasons {
		if r == reason {
			return
		}
	}
	f.reasons = append(f.reasons, reason)
}

// Scorer is a script's score(task, node) as a placement.Scorer. An int or
// a float is clamped into [0, 1] (so a script may return a raw measure
// such as a free share without worrying about rounding past 1); True and
// False are 1 and 0; NaN, None or anything else is a script error, after
// which every remaining candidate scores 0 and the Decider reports the
// error. Like Filter, it is NodeLocal (localScorer) only when the script
// is pure and has no instance_placement.
type Scorer struct{ s *Script }

// Name implements placement.Scorer.
func (*Scorer) Name() string { return "script score" }

// localScorer and localFilter are the scorer and the filter of a pure
// script without instance_placement (Attach): placement.NodeLocal, so
// the score index may cache them.
type (
	localScorer struct{ *Scorer }
	localFilter struct{ *Filter }
)

// NodeLocal implements placement.NodeLocal.
func (localScorer) NodeLocal() bool { return true }

// NodeLocal implements placement.NodeLocal.
func (localFilter) NodeLocal() bool { return true }

// Score implements placement.Scorer.
func (sc *Scorer) Score(l *placement.Ledger, t *placement.Task, cands []int32, out []float64) {
	s := sc.s
	clear(out[:len(cands)])
	if s.hasPending(t) {
		return
	}
	s.bind(l, t, EntryScore, cands, -1)
	task := s.taskValue(t)
	for i, n := range cands {
		s.cur.node, s.cur.seeded = int(n), false
		v, err := s.call(s.score, task, nodeKind.view(s.env, int(n)))
		if err != nil {
			s.fail(t, err)
			clear(out[:len(cands)])
			return
		}
		x, ok := number(v)
		if !ok {
			s.fail(t, s.badReturn(s.score, "a number (int or float, not NaN)", v))
			clear(out[:len(cands)])
			return
		}
		out[i] = min(max(x, 0), 1)
	}
}

// number reads a score: int, float or bool, never NaN.
func number(v starlark.Value) (float64, bool) {
	switch v := v.(type) {
	case starlark.Int:
		f, _ := starlark.AsFloat(v)
		return f, true
	case starlark.Float:
		return float64(v), !math.IsNaN(float64(v))
	case starlark.Bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// badReturn is the error for an entry point returning the wrong type; it
// points at the function's def line.
func (s *Script) badReturn(fn *starlark.Function, want string, got starlark.Value) *Error {
	pos := fn.Position()
	return &Error{
		Entry: fn.Name(),
		Pos:   fmt.Sprintf("%s:%d", pos.Filename(), pos.Line),
		Msg:   fmt.Sprintf("%s must return %s, not %s", fn.Name(), want, got.Type()),
	}
}

// taskValue is the task object for t, built once per task and attempt:
// a placement runs the filter and the scorer over many nodes in a row.
func (s *Script) taskValue(t *placement.Task) starlark.Value {
	c := &s.taskCache
	if !c.holds(t, s.env) {
		c.set(t, s.env, s.env.task(t))
	}
	return c.v
}

// requestValue is the instance_placement request for t, built once per
// task and attempt like the task object (both are frozen): a job that
// waits is offered again and again, and a decision should not pay for
// the request's dicts and lists each time.
func (s *Script) requestValue(t *placement.Task) starlark.Value {
	c := &s.reqCache
	if !c.holds(t, s.env) {
		c.set(t, s.env, s.env.request(t))
	}
	return c.v
}

// taskCache remembers the object built for the last task: what it was
// built from, and the object.
type taskCache struct {
	t      *placement.Task
	job    *sim.Job
	key    int64
	index  int
	reason string
	co     []int32 // the nodes of t.Co, copied
	env    *env
	v      starlark.Value
}

// holds reports whether c's object was built for t as it is now.
func (c *taskCache) holds(t *placement.Task, e *env) bool {
	return c.v != nil && c.t == t && c.job == t.Job && c.key == t.Key && c.index == t.Index && c.reason == t.Reason &&
		c.env == e && slices.Equal(c.co, t.Co)
}

func (c *taskCache) set(t *placement.Task, e *env, v starlark.Value) {
	*c = taskCache{t: t, job: t.Job, key: t.Key, index: t.Index, reason: t.Reason, co: append(c.co[:0], t.Co...), env: e, v: v}
}
