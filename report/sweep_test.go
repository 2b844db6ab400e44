package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepPoints checks the grouping by parameters and the averages over
// seeds, on the golden sweep.
func TestSweepPoints(t *testing.T) {
	s := goldenSweep(t)
	if len(s.Rows) != 36 || strings.Join(s.Varying, ",") != "param_backfill,param_w_age,param_w_fair" {
		t.Fatalf("rows %d, varying %v", len(s.Rows), s.Varying)
	}
	pts := s.points([]string{"mean_wait_s"})
	if len(pts) != 18 {
		t.Fatalf("got %d points, want 2 backfills × 3 × 3 = 18", len(pts))
	}
	// The first key is k__easy__w_age=0__w_fair=0: waits 100+1 and 100+2
	// over the two seeds, mean 101.5.
	p := pts[0]
	if p.Label != "backfill=easy w_age=0 w_fair=0" || len(p.Runs) != 2 || p.Metrics["mean_wait_s"] != 101.5 {
		t.Errorf("first point: %q, %d runs, wait %v", p.Label, len(p.Runs), p.Metrics["mean_wait_s"])
	}
}

// TestMarkFront checks non-domination by hand on five points.
func TestMarkFront(t *testing.T) {
	mk := func(w, f, e float64) *paretoPoint { return &paretoPoint{Wait: w, Fairness: f, Energy: e} }
	pts := []*paretoPoint{
		mk(10, 0.5, 5), // front: the least wait
		mk(20, 0.9, 5), // front: the best fairness
		mk(20, 0.8, 5), // dominated by the second (same wait and energy, less fair)
		mk(30, 0.7, 1), // front: the least energy
		mk(30, 0.7, 1), // an equal copy: neither beats the other, both stay
	}
	markFront(pts)
	want := []bool{true, true, false, true, true}
	for i, p := range pts {
		if p.Front != want[i] {
			t.Errorf("point %d: front %v, want %v", i, p.Front, want[i])
		}
	}
	// Without energy the fourth point is beaten by the second (less wait,
	// fairer), so only two remain.
	for _, p := range pts {
		p.Energy = math.NaN()
	}
	pts[0].Energy = 1 // one point with energy is not enough: energy is ignored
	markFront(pts)
	want = []bool{true, true, false, false, false}
	for i, p := range pts {
		if p.Front != want[i] {
			t.Errorf("without energy, point %d: front %v, want %v", i, p.Front, want[i])
		}
	}
}

// TestHeatmapWeights checks the choice of the two weights and the errors
// for weights the sweep does not vary.
func TestHeatmapWeights(t *testing.T) {
	s := goldenSweep(t)
	x, y, ok, err := s.heatmapWeights(nil)
	if err != nil || !ok || x != "param_w_age" || y != "param_w_fair" {
		t.Errorf("default: %s %s %v %v", x, y, ok, err)
	}
	x, y, ok, err = s.heatmapWeights([]string{"w_fair", "param_w_age"})
	if err != nil || !ok || x != "param_w_fair" || y != "param_w_age" {
		t.Errorf("asked: %s %s %v %v", x, y, ok, err)
	}
	if _, _, _, err := s.heatmapWeights([]string{"w_fair", "w_size"}); err == nil || !strings.Contains(err.Error(), "w_size is not a swept weight") {
		t.Errorf("unknown weight: %v", err)
	}
	if _, _, _, err := s.heatmapWeights([]string{"w_fair"}); err == nil {
		t.Error("one weight: want an error")
	}
	if err := CheckOptions(&Inputs{Sweeps: []*Sweep{s}}, Options{HeatmapMetrics: []string{"mean_wiat_s"}}); err == nil ||
		!strings.Contains(err.Error(), `no column "mean_wiat_s"`) || !strings.Contains(err.Error(), "summary.csv") {
		t.Errorf("unknown metric: %v", err)
	}
}

// TestSweepOneWeight checks that a sweep of one weight gets a note instead
// of a heatmap, and with two combinations a note instead of a Pareto
// front (no front of fewer than three points); its points are still
// ranked.
func TestSweepOneWeight(t *testing.T) {
	dir := t.TempDir()
	csv := "run,run_dir,param_w_age,seed,mean_wait_s,jain_bsld,energy_j\n" +
		"a,runs/a,0,1,10,0.5,3.6e6\n" +
		"b,runs/b,1,1,20,0.9,7.2e6\n"
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if !isSweep(dir) {
		t.Fatal("not recognised as a sweep")
	}
	s, err := LoadSweep(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := sweepFigures(s, "sweep_", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Figures) != 0 || len(v.Notes) != 2 || !strings.Contains(v.Notes[0], "No weight heatmap") ||
		!strings.Contains(v.Notes[1], "2 combinations of parameters, fewer than 3") {
		t.Fatalf("figures %d, notes %v", len(v.Figures), v.Notes)
	}
	// energy_j 3.6e6 J = 1 kWh; both points are on the front (b is fairer,
	// a waits less and uses less).
	if v.Points[0].Energy != 1 || !v.Points[0].Front || !v.Points[1].Front {
		t.Errorf("points: %+v %+v", *v.Points[0], *v.Points[1])
	}
}

// TestLoadSweepErrors checks that a summary lacking the sweep columns is
// refused with the file and line.
func TestLoadSweepErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte("run,x\na,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadSweep(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "summary.csv")+":1") {
		t.Errorf("got %v", err)
	}
}

// TestSweepWithoutObjectives checks that a sweep whose summary keeps only
// some metrics (an experiment's metrics: list) gets notes, not an error,
// unless a missing heatmap metric is asked for.
func TestSweepWithoutObjectives(t *testing.T) {
	dir := t.TempDir()
	csv := "run,run_dir,param_w_a,param_w_b,seed,mean_bsld\n" +
		"a,runs/a,0,0,1,2\n" +
		"b,runs/b,1,0,1,3\n" +
		"c,runs/c,0,1,1,4\n"
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSweep(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Sweeps: []*Sweep{s}}
	if err := CheckOptions(in, Options{}); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	v, err := sweepFigures(s, "sweep_", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Neither default heatmap metric is there, nor the Pareto objectives.
	if len(v.Figures) != 0 || len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "no mean_wait_s") {
		t.Errorf("figures %d, notes %v", len(v.Figures), v.Notes)
	}
	v, err = sweepFigures(s, "sweep_", Options{HeatmapMetrics: []string{"mean_bsld"}})
	if err != nil || len(v.Figures) != 1 || v.Figures[0].Name != "sweep_heatmap_mean_bsld" {
		t.Errorf("mean_bsld heatmap: %v, %d figures", err, len(v.Figures))
	}
	if err := CheckOptions(in, Options{HeatmapMetrics: []string{"jain_bsld"}}); err == nil {
		t.Error("a heatmap metric asked for and missing should be an error")
	}
}

// TestHeatmapFacets: the golden sweep varies backfill besides the two
// weights, so the heatmap has one panel per backfill, and each cell is
// the mean over the seeds of that backfill only, never of both.
func TestHeatmapFacets(t *testing.T) {
	s := goldenSweep(t)
	fs := s.facets("param_w_age", "param_w_fair")
	if len(fs) != 2 || fs[0].Label != "backfill=easy" || fs[1].Label != "backfill=none" {
		t.Fatalf("facets %v", fs)
	}
	g := heatmapGrid(fs[1].Rows, s.distinct("param_w_age"), s.distinct("param_w_fair"), "param_w_age", "param_w_fair", "mean_wait_s")
	// none, w_age=0, w_fair=0: waits 3·(100+1) and 3·(100+2), mean 304.5.
	if g.z[0][0] != 304.5 {
		t.Errorf("none cell (0, 0) = %v, want 304.5", g.z[0][0])
	}
	f, err := heatmapFigure(s, "h", "param_w_age", "param_w_fair", "mean_wait_s")
	if err != nil || len(f.Panels) != 1 || len(f.Panels[0]) != 2 || f.Plot != nil {
		t.Errorf("figure: %d panel rows, plot %v, %v", len(f.Panels), f.Plot != nil, err)
	}
}

// TestOpenbSpread reads a hand-made openb_alloc.csv and checks the mean
// and range over seeds, and that a bad number names file, line and column.
func TestOpenbSpread(t *testing.T) {
	dir := t.TempDir()
	csv := "policy,seed,arrived_pct,pods_arrived,pods_placed,arrived_gpu,allocated_gpu,gpu_alloc_pct,frag_gpu,frag_pct_of_free\n" +
		"fgd,1,0,0,0,0,0,0,0,10\nfgd,1,100,9,9,9,9,90,1,50\nfgd,2,0,0,0,0,0,0,0,12\nfgd,2,100,9,8,9,8,80,1,60\n" +
		"random,1,0,0,0,0,0,0,0,10\nrandom,1,100,9,7,9,7,70,1,70\n"
	if err := os.WriteFile(filepath.Join(dir, "openb_alloc.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := LoadInputs([]string{dir})
	if err != nil || len(in.Openb) != 1 {
		t.Fatalf("%v %v", in, err)
	}
	o := in.Openb[0]
	s := o.spread("fgd", func(p openbPoint) float64 { return p.Alloc })
	if len(s.Arrived) != 2 || s.Mean[1] != 85 || s.Lo[1] != 80 || s.Hi[1] != 90 || s.Seeds != 2 {
		t.Errorf("fgd spread %+v", s)
	}
	figs, err := openbFigures(o, "")
	if err != nil || len(figs) != 2 {
		t.Fatalf("%d figures, %v", len(figs), err)
	}
	if _, err := figs[0].render("png"); err != nil {
		t.Error(err)
	}
	bad := strings.Replace(csv, "fgd,2,100,9,8,9,8,80", "fgd,2,100,9,8,9,8,eighty", 1)
	if err := os.WriteFile(filepath.Join(dir, "openb_alloc.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOpenb(dir); err == nil || !strings.Contains(err.Error(), "openb_alloc.csv:5: gpu_alloc_pct") {
		t.Errorf("bad number: %v", err)
	}
}
