package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NodeEventKind is what happens to a node.
type NodeEventKind uint8

// Node events. A failed node is down: its tasks are
// killed and their jobs queued again (reason "relocation"), and it draws
// no power until it recovers. A drained node keeps its running jobs but
// takes no new task; jobs still on it at the drain's deadline, if it has
// one, are moved (queued again, reason "evacuation").
const (
	NodeFail NodeEventKind = iota
	NodeRecover
	NodeDrain
	NodeUndrain
)

var nodeEventNames = [...]string{"fail", "recover", "drain", "undrain"}

func (k NodeEventKind) String() string { return nodeEventNames[k] }

// ParseNodeEventKind reads "fail", "recover", "drain" or "undrain".
func ParseNodeEventKind(s string) (NodeEventKind, error) {
	for i, n := range nodeEventNames {
		if n == s {
			return NodeEventKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown node event %q (known: fail, recover, drain, undrain)", s)
}

// NodeEvent is one scheduled change of a node's state.
type NodeEvent struct {
	At   Time
	Node string
	Kind NodeEventKind
	// Deadline, for a drain, is when jobs still running on the node must
	// move; 0 lets them finish where they are.
	Deadline Time
}

// FailureModel makes nodes fail and recover at random: each node's times
// to failure and to repair are exponential with means MTBF and MTTR, drawn
// from the node's own stream of Seed, so a node's history does not depend
// on the others or on the schedule.
type FailureModel struct {
	MTBF, MTTR Time
	Seed       uint64
}

// Validate checks the means.
func (m *FailureModel) Validate() error {
	if m.MTBF <= 0 || m.MTTR <= 0 {
		return fmt.Errorf("failure model: MTBF and MTTR must be > 0")
	}
	return nil
}

// failureStreams draws each node's alternating failures and repairs.
type failureStreams struct {
	model FailureModel
	rngs  []*rand.Rand
}

func newFailureStreams(m FailureModel, nodes int) *failureStreams {
	f := &failureStreams{model: m, rngs: make([]*rand.Rand, nodes)}
	for n := range f.rngs {
		f.rngs[n] = rand.New(rand.NewPCG(m.Seed, 0x6661696c<<32|uint64(n))) // stream "fail" + node
	}
	return f
}

// next returns how long node n stays in its state: up (time to failure)
// or down (time to repair), at least 1 µs.
func (f *failureStreams) next(n int, up bool) Time {
	mean := f.model.MTTR
	if up {
		mean = f.model.MTBF
	}
	d := Time(math.Round(f.rngs[n].ExpFloat64() * float64(mean)))
	return max(d, 1)
}
