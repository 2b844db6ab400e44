package metrics

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// checkAssignment fails unless every started job got exactly its
// processors, inside the pool, and no processor ran two jobs at once.
func checkAssignment(t *testing.T, jobs []PoolJob, sets []IntervalSet, capacity int) {
	t.Helper()
	holder := map[int][]int{} // processor → jobs that held it
	for i, j := range jobs {
		if math.IsNaN(j.Start) {
			if sets[i] != nil {
				t.Errorf("job %d never started but holds %v", i, sets[i])
			}
			continue
		}
		if sets[i].Count() != j.Procs {
			t.Errorf("job %d needs %d processors, holds %d (%s)", i, j.Procs, sets[i].Count(), sets[i].Format(","))
		}
		for k, iv := range sets[i] {
			if iv.Lo < 0 || iv.Hi >= capacity || iv.Hi < iv.Lo || (k > 0 && iv.Lo <= sets[i][k-1].Hi+1) {
				t.Errorf("job %d: interval set %s outside the pool of %d or not canonical", i, sets[i].Format(","), capacity)
			}
			for p := iv.Lo; p <= iv.Hi; p++ {
				holder[p] = append(holder[p], i)
			}
		}
	}
	end := func(j PoolJob) float64 {
		if math.IsNaN(j.End) {
			return math.Inf(1)
		}
		return j.End
	}
	for p, js := range holder {
		for a := range js {
			for b := a + 1; b < len(js); b++ {
				x, y := jobs[js[a]], jobs[js[b]]
				if x.Start < end(y) && y.Start < end(x) && end(x) > x.Start && end(y) > y.Start {
					t.Fatalf("processor %d runs jobs %d [%g, %g) and %d [%g, %g) at once", p, js[a], x.Start, end(x), js[b], y.Start, end(y))
				}
			}
		}
	}
}

// TestAssignProcessors schedules seeded jobs greedily on a pool (first
// come, first served, jobs ending at an instant before jobs starting at
// it, some of zero length, some never started, some still running) and
// checks the assignment.
func TestAssignProcessors(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		capacity := 16 + rng.IntN(100)
		var jobs []PoolJob
		var running []PoolJob
		now := 0.0
		used := 0
		for len(jobs) < 400 {
			now += float64(rng.IntN(5))
			kept := running[:0]
			for _, r := range running {
				if r.End <= now {
					used -= r.Procs
				} else {
					kept = append(kept, r)
				}
			}
			running = kept
			n := 1 + rng.IntN(capacity)
			if rng.IntN(3) == 0 {
				n = 1 + rng.IntN(4)
			}
			if used+n > capacity {
				if rng.IntN(10) == 0 {
					jobs = append(jobs, PoolJob{Start: math.NaN(), End: math.NaN(), Procs: n})
				}
				continue
			}
			j := PoolJob{Start: now, End: now + float64(rng.IntN(30)), Procs: n}
			held := j.End
			if rng.IntN(50) == 0 {
				j.End, held = math.NaN(), math.Inf(1) // still running at the end: holds its processors
			}
			jobs = append(jobs, j)
			if held > j.Start {
				running = append(running, PoolJob{Start: j.Start, End: held, Procs: j.Procs})
				used += j.Procs
			}
		}
		sets, err := AssignProcessors(jobs, capacity)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkAssignment(t, jobs, sets, capacity)
	}
	// More at once than the pool holds is an error, not an overlap.
	if _, err := AssignProcessors([]PoolJob{{0, 10, 3}, {5, 9, 2}}, 4); err == nil {
		t.Error("5 processors at once on a pool of 4: no error")
	}
	// A job that fits in a hole takes the narrowest hole that holds it.
	sets, err := AssignProcessors([]PoolJob{{0, 10, 2}, {0, 1, 3}, {0, 10, 1}, {0, 1, 1}, {2, 5, 1}, {2, 5, 3}}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got := sets[4].Format(","); got != "6" {
		t.Errorf("1 processor with holes 2-4 and 6: got %s, want 6", got)
	}
	if got := sets[5].Format(","); got != "2-4" {
		t.Errorf("3 processors with hole 2-4 left: got %s, want 2-4", got)
	}
}

// TestBatsimExportPool replays jobs on a pool (one node of 64 cpu) and
// exports it as the pool model: each job's requested_number_of_resources
// is its processors and allocated_resources as many processors, never
// two running jobs on one.
func TestBatsimExportPool(t *testing.T) {
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "pool", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(64)}}}})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	var jobs []*sim.Job
	now := sim.Time(0)
	for i := range 300 {
		now += sim.Time(rng.Int64N(int64(60 * sim.Second)))
		n := 1 + rng.IntN(64)
		jobs = append(jobs, &sim.Job{ID: "j" + strconv.Itoa(i), Submit: now, Runtime: sim.Time(rng.Int64N(int64(900 * sim.Second))),
			Walltime: sim.NoWalltime, Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(int64(n))}}, User: "u"})
	}
	dir := t.TempDir()
	run(t, dir, c, jobs, sim.Config{}, Options{Format: FormatCSV}, FinalInfo{})
	out := filepath.Join(t.TempDir(), "out_jobs.csv")
	if err := ExportBatsim(dir, out, BatsimOptions{PoolProcessors: 64}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(BatsimJobsColumns, name) }
	want := map[string]int{}
	for _, j := range jobs {
		want[j.ID] = int(j.Request[0].Amount / sim.Units(1))
	}
	var pj []PoolJob
	var sets []IntervalSet
	for _, row := range rows[1:] {
		req, _ := strconv.Atoi(row[col("requested_number_of_resources")])
		if req != want[row[col("job_id")]] {
			t.Errorf("job %s: requested_number_of_resources %d", row[col("job_id")], req)
		}
		start, err1 := strconv.ParseFloat(row[col("starting_time")], 64)
		end, err2 := strconv.ParseFloat(row[col("finish_time")], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("job %s did not run", row[col("job_id")])
		}
		var set IntervalSet
		for _, p := range expandIntervals(t, row[col("allocated_resources")], " ") {
			if n := len(set); n > 0 && set[n-1].Hi+1 == p {
				set[n-1].Hi = p
			} else {
				set = append(set, Interval{p, p})
			}
		}
		pj = append(pj, PoolJob{Start: start, End: end, Procs: req})
		sets = append(sets, set)
	}
	if len(pj) != len(jobs) {
		t.Fatalf("%d rows for %d jobs", len(pj), len(jobs))
	}
	checkAssignment(t, pj, sets, 64)
}
