package report

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCompareSweeps: a report of two sweeps draws one figure per headline
// metric they have, each sweep's combinations side by side with every
// replica; a single sweep draws none.
func TestCompareSweeps(t *testing.T) {
	write := func(name, rows string) *Sweep {
		dir := filepath.Join(t.TempDir(), name)
		os.MkdirAll(dir, 0o755)
		csv := "run,run_dir,param_cluster,param_backfill,seed,mean_wait_s,jain_bsld\n" + rows
		if err := os.WriteFile(filepath.Join(dir, "summary.csv"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := LoadSweep(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	today := write("today", "a1,runs/a1,sp2,none,1,100,0.5\na2,runs/a2,sp2,none,2,120,0.6\na3,runs/a3,sp2,none,3,140,0.4\n")
	plus := write("plus20", "b1,runs/b1,sp2,none,1,50,0.7\nb2,runs/b2,sp2,easy,1,30,0.8\nb3,runs/b3,sp2,none,2,70,0.7\nb4,runs/b4,sp2,easy,2,40,\n")
	if figs, _ := compareFigures([]*Sweep{today}); len(figs) != 0 {
		t.Errorf("one sweep: %d figures", len(figs))
	}
	figs, err := compareFigures([]*Sweep{today, plus})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2 || figs[0].Name != "sweeps_mean_wait_s" || figs[1].Name != "sweeps_jain_bsld" {
		t.Fatalf("figures %v", figs)
	}
	groups := sweepGroups([]*Sweep{today, plus}, []string{"mean_wait_s", "jain_bsld"})
	want := []struct {
		label string
		waits int
		jain  int
	}{{"today", 3, 3}, {"plus20 backfill=none", 2, 2}, {"plus20 backfill=easy", 2, 1}}
	if len(groups) != len(want) {
		t.Fatalf("%d groups", len(groups))
	}
	for i, w := range want {
		g := groups[i]
		if g.Label != w.label || len(g.Values["mean_wait_s"]) != w.waits || len(g.Values["jain_bsld"]) != w.jain {
			t.Errorf("group %d: %q with %d waits, %d Jain; want %q, %d, %d", i, g.Label, len(g.Values["mean_wait_s"]),
				len(g.Values["jain_bsld"]), w.label, w.waits, w.jain)
		}
	}
	for _, f := range figs {
		if _, err := f.render("png"); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}
