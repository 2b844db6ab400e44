package lattice

import "github.com/schedsim/schedsim/sim"

// vClusters and borrowing (seed: "Elastic Resource Sharing"). Every node
// has a home vCluster (a node attribute, "vcluster" by default; a node
// without one is shared by all) and every job belongs to one (its
// "vcluster" label, else its queue). The seed's two levels of ownership
// are kept per node: the home, and the current holder, the vCluster whose
// jobs run there (the home while the node is idle). A node serves one
// vCluster at a time, so a borrowed node can always be handed back whole.
//
//   - A job starts on its own vCluster's nodes and shared ones when it
//     can; otherwise it may borrow idle nodes of other vClusters (or ones
//     its vCluster already borrows). Such a job's score is lowered by the
//     borrow penalty (the seed's "preemption penalty in the cost
//     function"), so at equal merit jobs that stay home go first.
//   - When the best-scored blocked job could start on its home nodes if
//     the borrowers there were gone, they are preempted (checkpointed, as
//     for priority preemption, whatever their class: the nodes are only
//     lent) and the nodes reclaimed in the same pass.
//   - Every change of a node's holder is recorded (Ownership).
//
// Reservations stay on home and shared nodes (borrowing later is not a
// promise), falling back to every node for a vCluster whose own nodes can
// never hold the job.

// VClusterConfig switches vClusters on and sets their knobs.
type VClusterConfig struct {
	// Enabled confines jobs to their vCluster's nodes, with borrowing
	// and reclaim; off, node homes are ignored.
	Enabled bool
	// Attribute names the node attribute holding its home; "" is
	// "vcluster".
	Attribute string
	// BorrowPenalty is subtracted from the score of a job that can start
	// only on borrowed nodes (≥ 0).
	BorrowPenalty float64
}

// Defaults for vClusters.
const (
	DefaultVClusterAttribute = "vcluster"
	LabelVCluster            = "vcluster" // job label naming its vCluster
)

// Ownership is one change of a node's holder: from At on, Holder's jobs
// use Node (Holder is the node's home when it falls idle or returns).
type Ownership struct {
	At     sim.Time
	Node   int
	Holder string
}

// vclusters is the ownership state.
type vclusters struct {
	home   []string // per node; "" shared
	holder []string // per node: whose tasks run there (valid when held > 0)
	held   []int    // per node: tasks running there (nodes with a home only)
	log    []Ownership
	proj   []int // held, projected by a preemption search
}

func newVClusters(cl *sim.Cluster, attr string) *vclusters {
	v := &vclusters{home: make([]string, len(cl.Nodes)), holder: make([]string, len(cl.Nodes)), held: make([]int, len(cl.Nodes))}
	for n, spec := range cl.Nodes {
		v.home[n] = spec.Attributes[attr]
		v.holder[n] = v.home[n]
	}
	return v
}

// VClusterOf is the vCluster of job j: its vcluster label, else its queue.
func VClusterOf(j *sim.Job) string {
	if j.Traits != nil {
		for _, l := range j.Traits.Labels {
			if l.Key == LabelVCluster {
				return l.Value
			}
		}
	}
	return j.Queue
}

// usable says whether a task of a job of vCluster vc may go on node n,
// with held the tasks running per node: a shared node always; otherwise a
// node nobody else uses that is vc's own, or, when borrowing, anyone's.
func (v *vclusters) usable(n int, vc string, borrow bool, held []int) bool {
	h := v.home[n]
	if h == "" {
		return true
	}
	if held[n] > 0 && v.holder[n] != vc {
		return false
	}
	return h == vc || borrow
}

// started books j's tasks on its nodes and logs the nodes it takes over.
func (v *vclusters) started(now sim.Time, j *sim.JobRun, nodes []int32) {
	vc := VClusterOf(j.Job)
	for _, n := range nodes {
		if v.home[n] == "" {
			continue
		}
		if v.held[n] == 0 && v.holder[n] != vc {
			v.holder[n] = vc
			v.log = append(v.log, Ownership{now, int(n), vc})
		}
		v.held[n]++
	}
}

// stopped releases j's tasks; a borrowed node left idle goes back home.
func (v *vclusters) stopped(now sim.Time, j *sim.JobRun) {
	for _, n := range j.Nodes {
		if v.home[n] == "" {
			continue
		}
		if v.held[n]--; v.held[n] == 0 && v.holder[n] != v.home[n] {
			v.holder[n] = v.home[n]
			v.log = append(v.log, Ownership{now, int(n), v.home[n]})
		}
	}
}

// borrows reports whether j holds a task on a node of vCluster vc's home
// while belonging to another: a job vc may reclaim from.
func (v *vclusters) borrows(j *sim.JobRun, vc string) bool {
	if VClusterOf(j.Job) == vc {
		return false
	}
	for _, n := range j.Nodes {
		if v.home[n] == vc {
			return true
		}
	}
	return false
}

// filter restricts a node enumeration to the nodes usable by vc.
func (v *vclusters) filter(visit func(func(n int) bool), vc string, borrow bool, held []int) func(func(n int) bool) {
	return func(yield func(n int) bool) {
		visit(func(n int) bool {
			if !v.usable(n, vc, borrow, held) {
				return true
			}
			return yield(n)
		})
	}
}

// VClustersOn reports whether the scheduler runs with vClusters.
func (s *Scheduler) VClustersOn() bool { return s.vcs != nil }

// Ownership returns the holder changes so far, in time order (nil without
// vClusters). A node's holder before its first entry is its home.
func (s *Scheduler) Ownership() []Ownership {
	if s.vcs == nil {
		return nil
	}
	return s.vcs.log
}

// mustBorrow reports whether j fits now only with borrowed nodes.
func (s *Scheduler) mustBorrow(c *sim.Context, j *sim.JobRun, in *jobInfo, require bool) bool {
	if nodes, _ := s.tryNow(c, j, in, require, false, false); nodes != nil {
		return false
	}
	nodes, _ := s.tryNow(c, j, in, require, false, true)
	return nodes != nil
}
