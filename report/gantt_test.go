package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ganttJobsCSV is a small hand-made run on four nodes: a job on two
// nodes, two jobs sharing node 0 at once (two lanes), one on nodes 1-3
// that must take a lane free on all three, one killed, one never started
// and one still running at the end (no end_s).
const ganttJobsCSV = `job_id,user,group,queue,tasks,submit_s,start_s,end_s,wait_s,runtime_s,walltime_s,turnaround_s,slowdown,bsld,state,reason,nodes,node_list,energy_j,restarts,lost_work_s
1,alice,g,q,2,0,0,100,0,100,200,100,1,1,completed,,2,0-1,0,0,0
2,bob,g,q,1,0,10,60,10,50,200,60,1.2,1.2,completed,,1,0,0,0,0
3,carol,g,q,3,0,50,150,50,100,200,150,1.5,1.5,killed,walltime,3,1-3,0,0,0
4,alice,g,q,1,0,100,180,100,80,200,180,2.25,2.25,completed,,1,0,0,0,0
5,bob,g,q,1,0,,,,,200,,,,rejected,too big,0,,0,0,0
6,carol,g,q,1,0,150,,150,,200,,,,running,,1,2,0,0,0
`

// writeGanttRun writes the run directory of ganttJobsCSV.
func writeGanttRun(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"jobs.csv":       ganttJobsCSV,
		"timeseries.csv": "time_s,queued_jobs,power_w,utilization_cpu\n0,0,0,0.5\n200,0,0,0\n",
		"summary.csv":    "jobs,mean_wait_s,utilization,trace,queue,backfill\n6,62,0.5,hand,fcfs,easy\n",
		"run.yaml":       "queue: fcfs\nprovenance:\n  cluster:\n    nodes: 4\n    totals: ['cpu: 4']\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGanttAgainstJobsTable lays out the Gantt chart of the hand-made run
// and checks every bar against its jobs table: each started job has one
// bar on each node of its node_list and none elsewhere, from its start_s
// to its end_s (the running job to the run's end); a job on several
// nodes takes one lane on all of them; no two bars overlap on a row; and
// each bar lies in its node's band.
func TestGanttAgainstJobsTable(t *testing.T) {
	r, err := Load(writeGanttRun(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Label != "hand · 4 nodes, cpu 4 · fcfs · easy · first-fit" {
		t.Errorf("label %q", r.Label)
	}
	t0, tn := r.timeRange()
	bars, nodes, err := ganttLayout(r.Jobs, t0, tn, tn, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		nodes      []int
		start, end float64
	}{
		"1": {[]int{0, 1}, 0, 100}, "2": {[]int{0}, 10, 60}, "3": {[]int{1, 2, 3}, 50, 150},
		"4": {[]int{0}, 100, 180}, "6": {[]int{2}, 150, 200},
	}
	got := map[string][]int{}
	lanes := map[string]map[int]bool{}
	band := map[int]ganttNode{}
	for _, n := range nodes {
		band[n.Index] = n
	}
	for _, b := range bars {
		j := r.Jobs[b.Job]
		w, ok := want[j.ID]
		if !ok {
			t.Errorf("job %s (%s) has a bar", j.ID, j.State)
			continue
		}
		if b.X0 != w.start || b.X1 != w.end {
			t.Errorf("job %s on node %d: bar %v to %v, want %v to %v", j.ID, b.Node, b.X0, b.X1, w.start, w.end)
		}
		got[j.ID] = append(got[j.ID], b.Node)
		if lanes[j.ID] == nil {
			lanes[j.ID] = map[int]bool{}
		}
		lanes[j.ID][b.Lane] = true
		n := band[b.Node]
		if b.Row < n.FirstRow || b.Row >= n.FirstRow+n.Lanes {
			t.Errorf("job %s: row %d outside node %d's band %d+%d", j.ID, b.Row, b.Node, n.FirstRow, n.Lanes)
		}
	}
	for id, w := range want {
		slices.Sort(got[id])
		if !slices.Equal(got[id], w.nodes) {
			t.Errorf("job %s: bars on nodes %v, want %v (its node_list)", id, got[id], w.nodes)
		}
		if len(lanes[id]) != 1 {
			t.Errorf("job %s: lanes %v, want one lane on every node", id, lanes[id])
		}
	}
	for i, a := range bars {
		for _, b := range bars[i+1:] {
			if a.Row == b.Row && a.X0 < b.X1 && b.X0 < a.X1 {
				t.Errorf("jobs %s and %s overlap on row %d", r.Jobs[a.Job].ID, r.Jobs[b.Job].ID, a.Row)
			}
		}
	}
	// Node 0 runs jobs 1 and 2 at once: two lanes; job 4 reuses a lane.
	if band[0].Lanes != 2 {
		t.Errorf("node 0 has %d lanes, want 2", band[0].Lanes)
	}

	// The window 120 to 160 s holds jobs 3 (nodes 1-3), 4 (node 0) and 6
	// (node 2), clipped to it; the caption says so.
	figs, err := ganttFigures([]*Run{r}, reduceLabels([]*Run{r}), Options{GanttWindow: [2]float64{120, 160}, GanttColor: "state"})
	if err != nil || len(figs) != 1 {
		t.Fatalf("%d figures, %v", len(figs), err)
	}
	if !strings.Contains(figs[0].Caption, "3 jobs on 4 nodes") {
		t.Errorf("caption: %s", figs[0].Caption)
	}
	if _, err := figs[0].render("svg"); err != nil {
		t.Error(err)
	}
	bars, _, _ = ganttLayout(r.Jobs, 120, 160, tn, 0)
	for _, b := range bars {
		if b.X0 < 120 || b.X1 > 160 {
			t.Errorf("job %s: %v to %v outside the window", r.Jobs[b.Job].ID, b.X0, b.X1)
		}
	}
}

// TestParseWindow reads seconds and units, and names the flag in errors.
func TestParseWindow(t *testing.T) {
	if w, err := ParseWindow("1.5d,36h30m"); err != nil || w != [2]float64{1.5 * 86400, 36.5 * 3600} {
		t.Errorf("1.5d,36h30m: %v %v", w, err)
	}
	if w, err := ParseWindow("0, 90m"); err != nil || w != [2]float64{0, 5400} {
		t.Errorf("0, 90m: %v %v", w, err)
	}
	for _, bad := range []string{"5", "3,2", "x,1d", "2d,36h"} {
		if _, err := ParseWindow(bad); err == nil || !strings.Contains(err.Error(), "--gantt-window") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
