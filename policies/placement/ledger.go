package placement

import (
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/seqmap"
)

// Ledger records what is placed where: the free amount of every resource
// on every node and the per-node facts that rules read (tasks, aversion
// groups, exclusive holders). It is the pipeline's view of the cluster.
type Ledger struct {
	Cluster *sim.Cluster
	R       int
	Free    []sim.Amount // Free[n*R+r], the sim.Cluster.TasksFitting layout
	// invCap[n*R+r] is 1 / node n's capacity of r, or 0 when it lacks r or
	// has none: resource scorers multiply instead of dividing.
	invCap []float64
	Tasks  []int32 // tasks on each node
	// exclusive[n] counts tasks on n holding an exclusive-host constraint:
	// while one runs, nothing else may land there.
	exclusive []int32
	// exclusives counts exclusive tasks booked anywhere; while it is 0 the
	// fit check skips them.
	exclusives int
	// groups[g][n] counts tasks of aversion group g on node n.
	groups map[string][]int32
	// cotasks[g] holds the node of each booked task of co-task group g
	// (cotasks.go); nil until a job with a group is booked.
	cotasks map[string][]int32
	// placedOne and placed remember each job's nodes, to give them back at
	// its end: a job's first task in placedOne (keys are the engine's
	// arrival numbers, so a sliding window without hashing or pointers),
	// the nodes of a job of several tasks in placed.
	placedOne seqmap.Map[int32]
	placed    map[int64][]int32
	// forget: Take records nothing; the caller keeps each job's nodes
	// (ForgetPlacements).
	forget  bool
	attrs   attributeColumns
	leaves  []int32 // nodes that can hold tasks, in index order
	tainted bool    // some node has taints
	// noSchedule[n]: node n has a NoSchedule taint (most nodes have none,
	// and the taint filter skips them without touching their specs).
	noSchedule []bool
	offline    []bool // nodes down or drained; nil when all are up
	// changes logs every node whose state changed, for the score index;
	// logStart is the absolute position of changes[0].
	changes  []int32
	logStart int64
	// trackers keep their own state in step with bookings (a device-level
	// model of GPUs, for the GPU strategies).
	trackers []Tracker
}

// Tracker is told of every booking in a ledger, after the ledger's own
// accounting: Took when task t lands on node n, Released when it leaves.
type Tracker interface {
	Took(t *Task, n int)
	Released(t *Task, n int)
}

// Attach adds a tracker. Rules that need state beyond the ledger's attach
// themselves on first use.
func (l *Ledger) Attach(tr Tracker) { l.trackers = append(l.trackers, tr) }

// NewLedger returns the ledger of an empty cluster.
func NewLedger(c *sim.Cluster) *Ledger { return newLedger(c, c.CapacityVector()) }

// NewPermissiveLedger returns the ledger of the most permissive state the
// cluster can reach: the empty cluster with every shortcoming cancelled
// (sim.Cluster.PermissiveVector). A job that does not fit it can never
// run; it is the ledger for that probe, not for placing.
func NewPermissiveLedger(c *sim.Cluster) *Ledger { return newLedger(c, c.PermissiveVector()) }

func newLedger(c *sim.Cluster, free []sim.Amount) *Ledger {
	l := &Ledger{
		Cluster:   c,
		R:         c.NumResources(),
		Free:      free,
		Tasks:     make([]int32, len(c.Nodes)),
		exclusive: make([]int32, len(c.Nodes)),
		groups:    map[string][]int32{},
		placed:    map[int64][]int32{},
	}
	l.attrs.init(c)
	l.invCap = make([]float64, len(l.Free))
	for i, a := range c.CapacityVector() {
		if a > 0 {
			l.invCap[i] = 1 / float64(a)
		}
	}
	for n, spec := range c.Nodes {
		if !c.IsParent(n) {
			l.leaves = append(l.leaves, int32(n))
		}
		if len(spec.Taints) > 0 {
			l.tainted = true
			if l.noSchedule == nil {
				l.noSchedule = make([]bool, len(c.Nodes))
			}
			for _, x := range spec.Taints {
				l.noSchedule[n] = l.noSchedule[n] || x.Effect == "NoSchedule"
			}
		}
	}
	return l
}

// SetOffline marks node n down or drained (true) or back (false): nothing
// new lands on an offline node.
func (l *Ledger) SetOffline(n int, off bool) {
	if l.offline == nil {
		l.offline = make([]bool, len(l.Tasks))
	}
	l.offline[n] = off
	l.changed(n)
}

// Leaves returns the nodes that can hold tasks, in index order.
func (l *Ledger) Leaves() []int32 { return l.leaves }

// Fits reports how many more tasks like t fit on node n now, at most limit,
// counting exclusive hosts: a node with an exclusive task takes no other,
// and an exclusive task wants an empty node.
func (l *Ledger) Fits(t *Task, n int, limit int) int {
	if l.exclusive[n] > 0 {
		return 0
	}
	if isExclusive(t) {
		if l.Tasks[n] > 0 {
			return 0
		}
		limit = min(limit, 1)
	}
	return l.Cluster.TasksFitting(l.Free, n, t.Need, t.Immune, limit)
}

// ForgetPlacements makes Take record nothing of where each job's tasks
// went: the caller, who keeps them anyway (a simulation's JobRun.Nodes),
// gives them back with ReleaseNodes. Release then gives back nothing. A
// simulation places and ends every job once, and the record cost a lookup
// in a table of the running jobs (a cache miss) at both ends. Call it
// before the first Take.
func (l *Ledger) ForgetPlacements() { l.forget = true }

// Take books task t on node n.
func (l *Ledger) Take(t *Task, n int) {
	l.book(t, n, 1)
	if l.forget {
		for _, tr := range l.trackers {
			tr.Took(t, n)
		}
		return
	}
	if nodes, ok := l.placed[t.Key]; ok {
		l.placed[t.Key] = append(nodes, int32(n))
	} else if first, ok := l.placedOne.Get(t.Key); ok {
		l.placed[t.Key] = []int32{first, int32(n)}
		l.placedOne.Delete(t.Key)
	} else {
		l.placedOne.Put(t.Key, int32(n))
	}
	for _, tr := range l.trackers {
		tr.Took(t, n)
	}
}

// Release gives back every task of the job with key, as booked by Take
// (with the same Task shape: every task of a job is alike).
func (l *Ledger) Release(t *Task) {
	if n, ok := l.placedOne.Get(t.Key); ok {
		l.release(t, int(n))
		l.placedOne.Delete(t.Key)
		return
	}
	for _, n := range l.placed[t.Key] {
		l.release(t, int(n))
	}
	delete(l.placed, t.Key)
}

// ReleaseNodes gives back one task of t's job on each of nodes, as booked
// by Take; for a ledger that forgets placements (ForgetPlacements).
func (l *Ledger) ReleaseNodes(t *Task, nodes []int32) {
	for _, n := range nodes {
		l.release(t, int(n))
	}
}

func (l *Ledger) release(t *Task, n int) {
	l.book(t, n, -1)
	for _, tr := range l.trackers {
		tr.Released(t, n)
	}
}

// changed logs node n for the score index. The log is cut when it grows
// past a few times the cluster; indexes behind the cut rebuild.
func (l *Ledger) changed(n int) {
	if len(l.changes) >= 4*len(l.Tasks)+1024 {
		l.logStart += int64(len(l.changes))
		l.changes = l.changes[:0]
	}
	l.changes = append(l.changes, int32(n))
}

func (l *Ledger) book(t *Task, n int, sign int32) {
	l.changed(n)
	l.Cluster.Consume(l.Free, n, t.Need, t.Immune, sim.Amount(sign))
	l.Tasks[n] += sign
	l.bookCotask(t, n, sign)
	if isExclusive(t) {
		l.exclusive[n] += sign
		l.exclusives += int(sign)
	}
	for _, g := range t.traits().AversionGroups {
		counts := l.groups[g]
		if counts == nil {
			counts = make([]int32, len(l.Tasks))
			l.groups[g] = counts
		}
		counts[n] += sign
	}
}

// GroupCount returns how many tasks of aversion group g are on node n.
func (l *Ledger) GroupCount(g string, n int) int32 {
	if counts := l.groups[g]; counts != nil {
		return counts[n]
	}
	return 0
}

// Attribute returns the attribute column for key: a value id per node (0
// when the node lacks the attribute) and the values by id (values[0] = "").
func (l *Ledger) Attribute(key string) (ids []int32, values []string) {
	return l.attrs.column(key)
}

func isExclusive(t *Task) bool {
	for _, c := range t.traits().Constraints {
		if c.Kind == ExclusiveHost && !c.Soft {
			return true
		}
	}
	return false
}
