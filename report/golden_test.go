package report

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs in testdata/golden")

// goldenRuns are two small hand-made runs: every run figure has something
// to draw, and the SVGs stay a few kilobytes.
func goldenRuns() []*Run {
	mk := func(label string, shift float64) *Run {
		r := &Run{Dir: "runs/" + label, Label: label, SummaryVals: map[string]string{
			"jain_bsld": strconv.FormatFloat(0.8-shift/10, 'f', -1, 64), "jain_usage_share": "0.9",
			"calib_wait_ks": strconv.FormatFloat(0.2+shift/10, 'f', -1, 64), "calib_p95_wait_ratio": "0.8"},
			Parts: []LabelPart{{"trace", "golden"}, {"cluster", "2 nodes, cpu 8"}, {"queue", "fcfs"},
				{"backfill", strings.TrimPrefix(label, "fcfs · ")}, {"placement", "first-fit"}},
			SharesConfigured: true}
		for j := 0; j < 6; j++ {
			start := float64(j) * 3000 * (1 + shift/2)
			r.Jobs = append(r.Jobs, GanttJob{ID: strconv.Itoa(j + 1), User: []string{"alice", "bob", "carol"}[j%3],
				State: "completed", Start: start, End: start + 5000, NodeList: []string{"0", "1", "0-1"}[j%3]})
		}
		for i := 0; i < 30; i++ {
			w := float64(i*i) * (1 + shift) // 0, 1, 4, … s
			r.Wait = append(r.Wait, w)
			r.BSLD = append(r.BSLD, 1+w/60)
			// Recorded starts: the traced system made every job wait
			// longer, 30 s more and half as long again.
			r.SimWait = append(r.SimWait, w)
			r.RecordedWait = append(r.RecordedWait, 30+1.5*w)
		}
		for i := 0; i <= 12; i++ {
			r.Time = append(r.Time, float64(i)*1800) // every 30 min for 6 h
			r.Queued = append(r.Queued, float64((i*3)%5)+shift*2)
			r.Util = append(r.Util, math.Min(1, 0.3+0.05*float64(i)+shift/4))
			r.Power = append(r.Power, 2000+1000*r.Util[i])
			frag := 0.2 - 0.01*float64(i) + shift/10
			if r.Util[i] == 1 {
				frag = math.NaN() // nothing free
			}
			r.Frag = append(r.Frag, frag)
			r.Asleep = append(r.Asleep, float64((12-i)/4)*(1-shift))
		}
		r.Tenants = []Tenant{
			{Name: "alice", MeanBSLD: 2 + shift, Usage: 600, UsageShare: 0.6, TargetShare: 0.5},
			{Name: "bob", MeanBSLD: 5 - shift, Usage: 300, UsageShare: 0.3, TargetShare: 0.25},
			{Name: "carol", MeanBSLD: math.NaN(), Usage: 100, UsageShare: 0.1, TargetShare: 0.25},
		}
		return r
	}
	return []*Run{mk("fcfs · none", 0), mk("fcfs · easy", 1)}
}

// goldenSweep is a sweep of two weights over three values each, two
// seeds, with an extra parameter (backfill) averaged in the heatmaps.
func goldenSweep(t *testing.T) *Sweep {
	dir := t.TempDir()
	var b bytes.Buffer
	b.WriteString("run,run_dir,param_backfill,param_w_age,param_w_fair,seed,mean_wait_s,jain_bsld,energy_kwh\n")
	for _, bf := range []string{"easy", "none"} {
		for a := 0; a < 3; a++ {
			for f := 0; f < 3; f++ {
				for seed := 1; seed <= 2; seed++ {
					key := fmt.Sprintf("k__%s__w_age=%d__w_fair=%d__seed=%d", bf, a, f, seed)
					wait := 100 + 50*float64(a) - 20*float64(f) + float64(seed)
					if bf == "none" {
						wait *= 3
					}
					jain := 0.5 + 0.1*float64(f) - 0.05*float64(a)
					energy := 10 + float64(a+f)/2
					fmt.Fprintf(&b, "%s,runs/%s,%s,%d,%d,%d,%g,%g,%g\n", key, key, bf, a, f, seed, wait, jain, energy)
				}
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.csv"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSweep(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = "golden"
	return s
}

// TestGoldenSVG renders every figure kind from fixed inputs and compares
// the SVG with testdata/golden (go test ./report -run Golden -update
// rewrites them). It also checks that a second rendering gives the same
// PNG and SVG bytes.
func TestGoldenSVG(t *testing.T) {
	figs, err := Figures(goldenRuns(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := sweepFigures(goldenSweep(t), "sweep_", Options{})
	if err != nil {
		t.Fatal(err)
	}
	figs = append(figs, v.Figures...)
	want := []string{"wait_cdf", "bsld_box", "calibration", "tenant_bsld", "tenant_usage_share", "utilization", "queue", "power",
		"fragmentation", "nodes_asleep", "energy", "gantt_1", "gantt_2", "sweep_heatmap_mean_wait_s", "sweep_heatmap_jain_bsld", "sweep_pareto"}
	if len(figs) != len(want) {
		t.Fatalf("got %d figures, want %d (%v)", len(figs), len(want), want)
	}
	for i, f := range figs {
		if f.Name != want[i] {
			t.Errorf("figure %d is %s, want %s", i, f.Name, want[i])
		}
		got, err := f.render("svg")
		if err != nil {
			t.Fatal(err)
		}
		again, _ := f.render("svg")
		png1, _ := f.render("png")
		png2, _ := f.render("png")
		if !bytes.Equal(got, again) || !bytes.Equal(png1, png2) {
			t.Errorf("%s: two renderings differ", f.Name)
		}
		path := filepath.Join("testdata", "golden", f.Name+".svg")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		golden, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./report -run Golden -update)", err)
		}
		if !bytes.Equal(got, golden) {
			t.Errorf("%s.svg differs from %s (%d vs %d bytes); look at the figure, then -update", f.Name, path, len(got), len(golden))
		}
	}
}
