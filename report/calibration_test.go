package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The calibration figure is drawn only for runs whose jobs have recorded
// starts: none for runs without, one plot for a single calibrated run,
// panels for several, each titled with the run's KS distance.
func TestCalibrationFigureOnlyWithRecordedStarts(t *testing.T) {
	plain := &Run{Label: "plain", SummaryVals: map[string]string{}, Wait: []float64{0, 60}, BSLD: []float64{1, 2}}
	calibrated := func(label, ks string) *Run {
		return &Run{Label: label, Parts: []LabelPart{{"queue", label}},
			SummaryVals: map[string]string{"calib_wait_ks": ks, "calib_p95_wait_ratio": "0.5"},
			Wait:        []float64{0, 60, 600}, BSLD: []float64{1, 1, 2},
			SimWait: []float64{0, 60, 600}, RecordedWait: []float64{30, 120, 1200}}
	}
	names := func(runs ...*Run) []string {
		figs, err := Figures(runs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range figs {
			out = append(out, f.Name)
		}
		return out
	}
	if n := names(plain); slices.Contains(n, "calibration") {
		t.Errorf("a run without recorded starts got a calibration figure: %v", n)
	}
	// A what-if run keeps the recorded start of the one job its load
	// factor did not move, but its summary has no calibration: no panel
	// (it would read "KS 1 · p95 ratio 0" over one job).
	whatIf := calibrated("plus20", "")
	if _, ok, _ := calibrationFigure([]*Run{whatIf}, reduceLabels([]*Run{whatIf})); ok {
		t.Error("a run whose summary has null calib_* got a calibration panel")
	}
	one := calibrated("sjf", "0.333")
	f, ok, err := calibrationFigure([]*Run{one, plain}, reduceLabels([]*Run{one, plain}))
	if err != nil || !ok || f.Plot == nil || f.Panels != nil {
		t.Fatalf("one calibrated run of two: ok %v, plot %v, panels %d, %v", ok, f.Plot != nil, len(f.Panels), err)
	}
	if !strings.Contains(f.Plot.Title.Text, "KS 0.333 · p95 ratio 0.5") {
		t.Errorf("title %q does not give the run's KS and p95 ratio", f.Plot.Title.Text)
	}
	runs := []*Run{calibrated("fcfs", "0.2"), plain, calibrated("sjf", "0.1"), calibrated("lattice", "0.3"), calibrated("multifactor", "0.4")}
	f, ok, err = calibrationFigure(runs, reduceLabels(runs))
	if err != nil || !ok || len(f.Panels) != 2 || len(f.Panels[0]) != 3 || f.Panels[1][0] == nil || f.Panels[1][1] != nil {
		t.Fatalf("four calibrated runs: want 2 rows of 3 panels, the last with one; got %d rows, %v", len(f.Panels), err)
	}
	if _, err := f.render("png"); err != nil {
		t.Error(err)
	}
}

// Load pairs each measured job's simulated wait with its recorded one,
// from the jobs table's recorded_start_s; jobs without a recorded start,
// not started, or in the warm-up (measured false) are left out.
func TestLoadReadsRecordedWaits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("summary.csv", "jobs,trace,queue,backfill\n4,t,fcfs,easy\n")
	write("run.yaml", "trace: t\nqueue: fcfs\nbackfill: easy\n")
	write("jobs.csv", "job_id,user,state,node_list,submit_s,start_s,end_s,wait_s,bsld,recorded_start_s,measured\n"+
		"1,u,completed,0,0,10,20,10,1,5,false\n"+ // warm-up: left out
		"2,u,completed,0,100,160,200,60,1,130,true\n"+ // waits 60 and 30
		"3,u,completed,0,200,200,300,0,1,,true\n"+ // no recorded start
		"4,u,queued,,300,,,,,400,true\n"+ // never started
		"5,u,completed,0,400,400,500,0,1,700,true\n") // waits 0 and 300
	write("timeseries.csv", "time_s,queued_jobs,power_w,utilization_cpu\n0,0,0,0\n")
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.SimWait, []float64{60, 0}) || !slices.Equal(r.RecordedWait, []float64{30, 300}) {
		t.Errorf("simulated %v, recorded %v; want [60 0] and [30 300]", r.SimWait, r.RecordedWait)
	}
	if len(r.Wait) != 4 || math.IsNaN(r.Wait[0]) {
		t.Errorf("waits %v", r.Wait)
	}
}
