package metrics

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A run in the SWF pool model has one node of N processors: the engine
// counts free processors, it does not name them. For display (the Gantt
// chart's processor rows) and export (Batsim's allocated_resources),
// schedsim gives every job an interval set of the pool's processors after
// the run, from the jobs table, as Batsim allocates hosts: a job that
// starts gets the narrowest free run of consecutive processors that holds
// it (the lowest such run on a tie), else the lowest free processors. The
// engine ends every job of an instant before it starts any, so processors
// freed at t are free for a job starting at t.

// Interval is the processors Lo..Hi, both included.
type Interval struct{ Lo, Hi int }

// IntervalSet is a job's processors as intervals in increasing order.
type IntervalSet []Interval

// Count is the number of processors in the set.
func (s IntervalSet) Count() int {
	n := 0
	for _, iv := range s {
		n += iv.Hi - iv.Lo + 1
	}
	return n
}

// Format writes the set as Batsim does ("0-3 7" with sep " ") or as
// node_list does ("0-3,7" with sep ",").
func (s IntervalSet) Format(sep string) string {
	var b strings.Builder
	for i, iv := range s {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(strconv.Itoa(iv.Lo))
		if iv.Hi > iv.Lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(iv.Hi))
		}
	}
	return b.String()
}

// PoolJob is what the assignment needs of a job: when it held
// processors and how many. Start NaN: it never started; End NaN: it was
// still running when the run ended.
type PoolJob struct {
	Start, End float64
	Procs      int
}

// AssignProcessors gives each job its processors among capacity (see the
// package comment above). Jobs that never started get a nil set. It
// fails when the jobs need more processors at once than the pool has,
// which a run of the pool model never does.
func AssignProcessors(jobs []PoolJob, capacity int) ([]IntervalSet, error) {
	order := make([]int, 0, len(jobs))
	for i, j := range jobs {
		if !math.IsNaN(j.Start) && j.Procs > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].Start < jobs[order[b]].Start })
	byEnd := make([]int, 0, len(order))
	for _, i := range order {
		if !math.IsNaN(jobs[i].End) {
			byEnd = append(byEnd, i)
		}
	}
	sort.SliceStable(byEnd, func(a, b int) bool { return jobs[byEnd[a]].End < jobs[byEnd[b]].End })
	out := make([]IntervalSet, len(jobs))
	free := IntervalSet{{0, capacity - 1}}
	if capacity <= 0 {
		free = nil
	}
	next := 0 // next job of byEnd to release
	for _, i := range order {
		j := jobs[i]
		for ; next < len(byEnd) && jobs[byEnd[next]].End <= j.Start; next++ {
			if k := byEnd[next]; out[k] != nil && jobs[k].End > jobs[k].Start { // held processors until now
				free = release(free, out[byEnd[next]])
			}
		}
		got, rest, ok := take(free, j.Procs)
		if !ok {
			return nil, fmt.Errorf("job starting at %g s needs %d processors, %d are free of %d",
				j.Start, j.Procs, free.Count(), capacity)
		}
		out[i], free = got, rest
		if j.End <= j.Start { // ran no time: holds nothing after its instant
			free = release(free, got)
		}
	}
	return out, nil
}

// take picks n processors of free: the narrowest interval that holds
// them, else the lowest ones.
func take(free IntervalSet, n int) (got, rest IntervalSet, ok bool) {
	best := -1
	for k, iv := range free {
		w := iv.Hi - iv.Lo + 1
		if w >= n && (best < 0 || w < free[best].Hi-free[best].Lo+1) {
			best = k
		}
	}
	rest = make(IntervalSet, 0, len(free)+1)
	if best >= 0 {
		iv := free[best]
		got = IntervalSet{{iv.Lo, iv.Lo + n - 1}}
		rest = append(rest, free[:best]...)
		if iv.Lo+n <= iv.Hi {
			rest = append(rest, Interval{iv.Lo + n, iv.Hi})
		}
		return got, append(rest, free[best+1:]...), true
	}
	if free.Count() < n {
		return nil, free, false
	}
	for _, iv := range free {
		if n == 0 {
			rest = append(rest, iv)
			continue
		}
		w := min(n, iv.Hi-iv.Lo+1)
		got = append(got, Interval{iv.Lo, iv.Lo + w - 1})
		if iv.Lo+w <= iv.Hi {
			rest = append(rest, Interval{iv.Lo + w, iv.Hi})
		}
		n -= w
	}
	return got, rest, true
}

// release returns s's processors to free, merging neighbours.
func release(free, s IntervalSet) IntervalSet {
	all := append(append(make(IntervalSet, 0, len(free)+len(s)), free...), s...)
	sort.Slice(all, func(a, b int) bool { return all[a].Lo < all[b].Lo })
	out := all[:0]
	for _, iv := range all {
		if n := len(out); n > 0 && out[n-1].Hi+1 == iv.Lo {
			out[n-1].Hi = iv.Hi
			continue
		}
		out = append(out, iv)
	}
	return out
}

// RequestProcs is the processors of one task in a jobs table's request
// column ("cpu=25"): the pool model's one resource. ok is false when the
// request names no whole number of cpu.
func RequestProcs(request string) (int, bool) {
	for _, kv := range strings.Split(request, ",") {
		if v, ok := strings.CutPrefix(kv, "cpu="); ok {
			n, err := strconv.Atoi(v)
			return n, err == nil && n > 0
		}
	}
	return 0, false
}

// PoolProcessors is the number of processors of the run in runDir when it
// replayed an SWF trace in the pool model (one node of N processors), read
// from its run.yaml; 0 for any other run (whole nodes, a cluster file, a
// Batsim platform), whose node_list already names what each job held.
func PoolProcessors(runDir string) (int, error) {
	path := filepath.Join(runDir, "run.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var c struct {
		Cluster    string `yaml:"cluster"`
		Platform   string `yaml:"platform"`
		SWFModel   string `yaml:"swf_model"`
		Provenance struct {
			Trace struct {
				Format string `yaml:"format"`
			} `yaml:"trace"`
			Cluster struct {
				Nodes  int      `yaml:"nodes"`
				Totals []string `yaml:"totals"`
			} `yaml:"cluster"`
		} `yaml:"provenance"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return poolSize(c.Cluster, c.Platform, c.SWFModel, c.Provenance.Trace.Format, c.Provenance.Cluster.Nodes,
		c.Provenance.Cluster.Totals), nil
}

// poolSize is the pool's processors given run.yaml's fields, 0 when the
// run is not in the pool model.
func poolSize(cluster, platform, model, format string, nodes int, totals []string) int {
	if cluster != "" || platform != "" || model != "pool" || format != "swf" || nodes != 1 {
		return 0
	}
	for _, t := range totals {
		if v, ok := strings.CutPrefix(t, "cpu: "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}
