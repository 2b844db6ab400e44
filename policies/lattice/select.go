package lattice

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Why a selection failed, for reservations and rejection reasons.
type failure uint8

const (
	fitOK           failure = iota
	tooFewNodes             // not enough room for the tasks
	nonConformant           // room, but in no single conformance group (hard under sensitive)
	overPowerBudget         // room, but the draw would exceed the budget
)

var failureText = [...]string{"", "not enough free nodes", "no conformance group can hold it", "it would exceed the power budget"}

// selector is step 2a of GreedyTopologyAwareBackfill: the smallest set of
// available nodes, in the fewest topology groups, in one conformance group
// when one can hold the job (required when the profile says so).
//
// Conformance first: among the conformance groups that can hold all the
// tasks it takes the largest (the seed: "prefers to select nodes from the
// largest available conformance group that satisfies the allocation's
// constraints"), ties to the lowest group id. Then topology: the fewest
// groups m whose capacities cover the tasks; with m = 1 the smallest group
// that suffices (best fit, which keeps large groups whole for large jobs),
// else the m − 1 largest plus the smallest group covering the rest. Then
// nodes: inside the chosen groups, the nodes holding the most tasks first
// (the fewest nodes), ties to the lowest index.
type selector struct {
	cl         *sim.Cluster
	topo, conf grouping
	// scratch
	nodes   []int32 // candidate nodes
	fits    []int32 // tasks each candidate holds
	topoCap []int
	confCap []int
	chosen  []bool // per topology group
	order   []int
	// prefer, when set, puts the nodes it accepts first within the
	// chosen groups (a borrowing job's own vCluster's nodes).
	prefer func(n int32) bool
}

func newSelector(cl *sim.Cluster, topoAttr, confAttr string) *selector {
	s := &selector{cl: cl, topo: newGrouping(cl, topoAttr), conf: newGrouping(cl, confAttr)}
	s.topoCap = make([]int, s.topo.size())
	s.confCap = make([]int, s.conf.size())
	s.chosen = make([]bool, s.topo.size())
	return s
}

// pick returns one node per task of j (k tasks), or nil and why not.
// visit enumerates the candidate nodes (in index order) over the free
// vector; limit, when not nil, caps the tasks node n may take.
func (s *selector) pick(j *sim.JobRun, free []sim.Amount, visit func(func(n int) bool), limit func(n, fit int) int, requireConf bool, out []int32) ([]int32, failure) {
	k := j.Job.Tasks
	req, immune := j.Needs(), j.Immune()
	s.nodes, s.fits = s.nodes[:0], s.fits[:0]
	clear(s.confCap)
	total := 0
	visit(func(n int) bool {
		f := s.cl.TasksFitting(free, n, req, immune, k)
		if limit != nil && f > 0 {
			f = limit(n, f)
		}
		if f > 0 {
			s.nodes = append(s.nodes, int32(n))
			s.fits = append(s.fits, int32(f))
			s.confCap[s.conf.of[n]] += f
			total += f
		}
		return true
	})
	if total < k {
		return nil, tooFewNodes
	}
	// Conformance: keep the largest group that holds every task.
	best := -1
	for g, v := range s.confCap {
		if v >= k && (best < 0 || v > s.confCap[best]) {
			best = g
		}
	}
	if best < 0 && requireConf {
		return nil, nonConformant
	}
	if best >= 0 && s.conf.size() > 1 {
		w := 0
		for i, n := range s.nodes {
			if int(s.conf.of[n]) == best {
				s.nodes[w], s.fits[w] = n, s.fits[i]
				w++
			}
		}
		s.nodes, s.fits = s.nodes[:w], s.fits[:w]
	}
	s.chooseGroups(k)
	// Nodes in the chosen groups, most tasks first.
	s.order = s.order[:0]
	for i, n := range s.nodes {
		if s.chosen[s.topo.of[n]] {
			s.order = append(s.order, i)
		}
	}
	sort.SliceStable(s.order, func(a, b int) bool {
		x, y := s.order[a], s.order[b]
		if s.prefer != nil {
			if px, py := s.prefer(s.nodes[x]), s.prefer(s.nodes[y]); px != py {
				return px
			}
		}
		return s.fits[x] > s.fits[y]
	})
	out = out[:0]
	for _, i := range s.order {
		for t := int32(0); t < s.fits[i] && len(out) < k; t++ {
			out = append(out, s.nodes[i])
		}
		if len(out) == k {
			break
		}
	}
	return out, fitOK
}

// chooseGroups marks the topology groups the job takes (s.chosen) among
// the candidates in s.nodes, which together hold at least k tasks.
func (s *selector) chooseGroups(k int) {
	clear(s.topoCap)
	clear(s.chosen)
	for i, n := range s.nodes {
		s.topoCap[s.topo.of[n]] += int(s.fits[i])
	}
	if len(s.topoCap) == 1 {
		s.chosen[0] = true
		return
	}
	ids := make([]int, 0, len(s.topoCap))
	for g, v := range s.topoCap {
		if v > 0 {
			ids = append(ids, g)
		}
	}
	// Largest first, ties to the lowest id.
	sort.SliceStable(ids, func(a, b int) bool { return s.topoCap[ids[a]] > s.topoCap[ids[b]] })
	sum, m := 0, 0
	for m < len(ids) && sum < k {
		sum += s.topoCap[ids[m]]
		m++
	}
	// The m − 1 largest, then the smallest group covering the rest.
	rest := k
	for _, g := range ids[:m-1] {
		s.chosen[g] = true
		rest -= s.topoCap[g]
	}
	last := -1
	for _, g := range ids[m-1:] {
		if s.topoCap[g] >= rest && (last < 0 || s.topoCap[g] < s.topoCap[last] || (s.topoCap[g] == s.topoCap[last] && g < last)) {
			last = g
		}
	}
	s.chosen[last] = true
}

// groupsUsed counts the topology groups of a node list.
func (s *selector) groupsUsed(nodes []int32) int {
	clear(s.chosen)
	k := 0
	for _, n := range nodes {
		if g := s.topo.of[n]; !s.chosen[g] {
			s.chosen[g] = true
			k++
		}
	}
	return k
}
