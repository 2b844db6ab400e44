package experiment

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/policies/lattice"
)

// Plan is an experiment's runs, made one at a time in key order (byte
// order of Run.Key) whenever they are iterated, never held: its memory is
// that of the axes (their values, and the points of random or LHS
// sampling), not of the runs, so a million runs plan in a few megabytes.
// Spec.Plan checks it once (the count and that no two runs share a key);
// All and Shard then give the same runs in the same order every time.
type Plan struct {
	spec     *Spec
	root     *keyAxis
	traces   []Trace
	clusters []Cluster
	queues   []string
	profiled []bool // queues[i] reads weight profiles: its runs have a profile
	backfill []string
	place    []string
	profiles []string
	// grid holds each range's values (a grid), sampled the points
	// (random, LHS); both empty without ranges.
	grid    [][]Value
	sampled [][]Param
	// cut is how many leading bytes every key keeps whole, however
	// long it is (cutKey hashes the rest of keys longer than maxKey).
	cut int
	n   int
}

// Plan makes the experiment's plan, refusing it when it has more runs
// than the limit (counted from the axes' sizes, before anything is made)
// or when two runs have the same key (values that differ only in
// characters a key cannot hold).
func (s *Spec) Plan() (*Plan, error) {
	if n, limit := s.Count(), s.runLimit(); n > int64(limit) {
		return nil, fmt.Errorf("%s: the experiment has %s runs (%s), more than the limit of %d; --max-runs raises it",
			s.File, countText(n), s.countFactors(), limit)
	}
	p := &Plan{spec: s, backfill: orDefault(s.Policies.Backfill, DefaultBackfill), place: orDefault(s.Policies.Placement, DefaultPlacement),
		queues: s.queues(), clusters: s.Clusters, profiles: orDefault(s.Profiles, lattice.DefaultProfile)}
	for _, q := range p.queues {
		p.profiled = append(p.profiled, readsProfiles(q))
	}
	if len(p.clusters) == 0 {
		p.clusters = []Cluster{{Name: DefaultCluster}}
	}
	for i := range s.Traces {
		tr := s.Traces[i]
		tr.Name = s.TraceName(i)
		p.traces = append(p.traces, tr)
	}
	if len(s.Parameters.Ranges) > 0 {
		if s.Parameters.Sampling == "" || s.Parameters.Sampling == Grid {
			for i := range s.Parameters.Ranges {
				p.grid = append(p.grid, s.Parameters.Ranges[i].discrete())
			}
		} else {
			pts, err := s.sampledPoints()
			if err != nil {
				return nil, err
			}
			p.sampled = pts
		}
	}
	seeds := max(s.Seeds, 1)
	p.cut = maxKey - 13 - len(replicaSeg) - len(strconv.Itoa(seeds))
	p.root = p.axes(seeds)
	var prev string
	for key := range p.keys {
		if key == prev {
			return nil, fmt.Errorf("%s: two runs have the key %s: rename what differs only in characters other than letters, digits and . _ + - =", s.File, key)
		}
		prev = key
		p.n++
	}
	return p, nil
}

// axes builds the key's axes: trace, cluster, queue, backfill, placement,
// profile (one empty segment for queues without profiles), the
// parameters (one axis per grid range, or one of the sampled points),
// replica.
func (p *Plan) axes(seeds int) *keyAxis {
	tail := &keyAxis{replicas: seeds}
	switch {
	case len(p.sampled) > 0:
		segs := make([]string, len(p.sampled))
		for i, pt := range p.sampled {
			var b strings.Builder
			for _, prm := range pt {
				b.WriteString(paramSeg(prm.Name, prm.Value))
			}
			segs[i] = b.String()
		}
		tail = newKeyAxis(segs, func(int) *keyAxis { return tail })
	case len(p.grid) > 0:
		for j := len(p.grid) - 1; j >= 0; j-- {
			segs := make([]string, len(p.grid[j]))
			for i, v := range p.grid[j] {
				segs[i] = paramSeg(p.spec.Parameters.Ranges[j].Name, v)
			}
			next := tail
			tail = newKeyAxis(segs, func(int) *keyAxis { return next })
		}
	}
	segs := func(prefix string, values []string, name func(string) string) []string {
		out := make([]string, len(values))
		for i, v := range values {
			out[i] = prefix + name(v)
		}
		return out
	}
	same := func(v string) string { return v }
	withProfile := newKeyAxis(segs(keySep, p.profiles, profileName), func(int) *keyAxis { return tail })
	noProfile := newKeyAxis([]string{""}, func(int) *keyAxis { return tail })
	placements := func(prof *keyAxis) *keyAxis {
		return newKeyAxis(segs(keySep, p.place, same), func(int) *keyAxis { return prof })
	}
	backfills := func(prof *keyAxis) *keyAxis {
		pl := placements(prof)
		return newKeyAxis(segs(keySep, p.backfill, same), func(int) *keyAxis { return pl })
	}
	bfProfile, bfPlain := backfills(withProfile), backfills(noProfile)
	queues := newKeyAxis(segs(keySep, p.queues, same), func(i int) *keyAxis {
		if p.profiled[i] {
			return bfProfile
		}
		return bfPlain
	})
	clusters := newKeyAxis(segs(keySep, clusterNames(p.clusters), same), func(int) *keyAxis { return queues })
	names := make([]string, len(p.traces))
	for i, t := range p.traces {
		names[i] = t.Name
	}
	return newKeyAxis(names, func(int) *keyAxis { return clusters })
}

func clusterNames(cs []Cluster) []string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return names
}

// paramSeg is a parameter's key segment.
func paramSeg(name string, v Value) string { return keySep + name + "=" + v.key() }

// Len is how many runs the plan has.
func (p *Plan) Len() int { return p.n }

// ShardLen is how many runs shard index of count has.
func (p *Plan) ShardLen(index, count int) int { return (p.n - index + count - 1) / count }

// All yields every run with its position, in key order.
func (p *Plan) All() iter.Seq2[int, Run] { return p.Shard(0, 1) }

// Shard yields the runs of shard index (0-based) of count, with their
// positions in key order: those whose position is index mod count. The
// split depends only on the keys, so every process of a sharded sweep
// agrees on it, and shards differ in size by at most one run.
func (p *Plan) Shard(index, count int) iter.Seq2[int, Run] {
	return func(yield func(int, Run) bool) {
		i := 0
		for key, path := range p.keys {
			if i%count == index && !yield(i, p.run(key, path)) {
				return
			}
			i++
		}
	}
}

// pending is a run's place in the key order while its window is open.
type pending struct {
	key  string
	path []int
}

// keys yields every run's key in key order, with its path (one value
// index per axis, as axes builds them). Keys come from walk in byte order
// of their whole text; a key longer than maxKey keeps only its first
// bytes (at least p.cut) and a hash of the rest, which may move it among
// the keys that share those bytes. So the keys that share their first
// p.cut bytes, a window, are held and sorted before they are yielded:
// one run, but where long names make keys that are cut.
func (p *Plan) keys(yield func(key string, path []int) bool) {
	var window []pending
	var open string
	flush := func() bool {
		if len(window) > 1 {
			slices.SortStableFunc(window, func(a, b pending) int { return strings.Compare(a.key, b.key) })
		}
		for _, w := range window {
			if !yield(w.key, w.path) {
				return false
			}
		}
		window = window[:0]
		return true
	}
	stopped := false
	walk(p.root, nil, nil, func(full []byte, path []int) bool {
		head := full[:min(len(full), p.cut)]
		if len(window) > 0 && string(head) != open {
			if !flush() {
				stopped = true
				return false
			}
		}
		if len(window) == 0 {
			open = string(head)
		}
		replica := path[len(path)-1]
		window = append(window, pending{key: cutKey(string(full), len(replicaSeg)+len(strconv.Itoa(replica))), path: slices.Clone(path)})
		return true
	})
	if !stopped {
		flush()
	}
}

// run is the run of key at path (one value index per axis, as axes
// builds them).
func (p *Plan) run(key string, path []int) Run {
	r := Run{Key: key, Trace: p.traces[path[0]], Cluster: p.clusters[path[1]], Queue: p.queues[path[2]],
		Backfill: p.backfill[path[3]], Placement: p.place[path[4]], Replica: path[len(path)-1]}
	if p.profiled[path[2]] {
		r.Profile = p.profiles[path[5]]
	}
	switch {
	case len(p.sampled) > 0:
		r.Params = slices.Clone(p.sampled[path[6]])
	case len(p.grid) > 0:
		r.Params = make([]Param, len(p.grid))
		for j, vals := range p.grid {
			r.Params[j] = Param{p.spec.Parameters.Ranges[j].Name, vals[path[6+j]]}
		}
	}
	r.Seed = RunSeed(p.spec.Seed, r.Key)
	return r
}
