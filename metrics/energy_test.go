package metrics

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// oneSleepyNode: 4 cpus, 100 W idle, 200 W busy, 10 W asleep; switching
// off takes 2 s at 50 W, on 5 s at 80 W.
func oneSleepyNode(t *testing.T) *sim.Cluster {
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "a", Capacity: cpu(4), Power: sim.PowerModel{IdleW: 100, MaxW: 200, OffW: 10,
		SwitchOff: sim.PowerSwitch{Time: 2 * sim.Second, W: 50}, SwitchOn: sim.PowerSwitch{Time: 5 * sim.Second, W: 80}}}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPowerDownTables: j1 runs 0–10 s, j2 arrives at 1000 s; the node is
// idle from 10 s, switches off at 70 s (idle 60 s), sleeps 72–1000 s and
// wakes for j2, which runs 1005–1015 s: 5 s late, the switch-on time.
//
//	on 0–70 and 1005–1015 (80 s): 100 W · 80 s   =  8000 J
//	busy above idle: 100 W · 20 s                 =  2000 J
//	switching off 70–72: 50 W · 2 s               =   100 J
//	asleep 72–1000: 10 W · 928 s                  =  9280 J
//	switching on 1000–1005: 80 W · 5 s            =   400 J
//	total                                           19780 J
//
// Always on, the same jobs take 100 W · 1010 s + 2000 J = 103000 J.
func TestPowerDownTables(t *testing.T) {
	jobs := func() []*sim.Job { return []*sim.Job{job("1", 0, 10, -1, 1, 4), job("2", 1000, 10, -1, 1, 4)} }
	dir := t.TempDir()
	run(t, dir, oneSleepyNode(t), jobs(), sim.Config{PowerDown: &sim.PowerDown{After: 60 * sim.Second}}, Options{}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"energy_j": "19780", "makespan_s": "1015", "node_asleep_s": "928",
		"node_switching_s": "7", "switch_offs": "1", "switch_ons": "1", "max_wait_s": "5", "energy_cost": "", "carbon_kg": ""} {
		if s[k] != want {
			t.Errorf("summary %s = %q, want %q", k, s[k], want)
		}
	}
	nodes := readParquet(t, filepath.Join(dir, "nodes.parquet"))
	for k, want := range map[string]any{"energy_j": 19780.0, "asleep_s": 928.0, "switching_s": 7.0, "switch_offs": int64(1),
		"switch_ons": int64(1), "off_w": 10.0} {
		if got := nodes[k][0]; got != want {
			t.Errorf("nodes %s = %v, want %v", k, got, want)
		}
	}
	jobsT := readParquet(t, filepath.Join(dir, "jobs.parquet"))
	if jobsT["start_s"][1] != 1005.0 || jobsT["wait_s"][1] != 5.0 {
		t.Errorf("j2 start %v wait %v, want 1005 and 5", jobsT["start_s"][1], jobsT["wait_s"][1])
	}
	ts := readParquet(t, filepath.Join(dir, "timeseries.parquet"))
	var asleep []any
	for i := range ts["time_s"] {
		asleep = append(asleep, ts["time_s"][i], ts["nodes_asleep"][i], ts["power_w"][i])
	}
	want := []any{0.0, int64(0), 200.0, 10.0, int64(0), 100.0, 70.0, int64(1), 50.0, 72.0, int64(1), 10.0,
		1000.0, int64(1), 80.0, 1005.0, int64(0), 200.0, 1015.0, int64(0), 100.0}
	if len(asleep) != len(want) {
		t.Fatalf("timeseries (time, nodes_asleep, power_w) = %v\nwant %v", asleep, want)
	}
	for i := range want {
		if asleep[i] != want[i] {
			t.Fatalf("timeseries (time, nodes_asleep, power_w) = %v\nwant %v", asleep, want)
		}
	}

	always := t.TempDir()
	run(t, always, oneSleepyNode(t), jobs(), sim.Config{}, Options{}, FinalInfo{})
	s, _ = ReadSummaryCSV(filepath.Join(always, "summary.csv"))
	if s["energy_j"] != "103000" || s["max_wait_s"] != "0" || s["switch_offs"] != "0" {
		t.Errorf("always on: energy %s, max wait %s, switch_offs %s", s["energy_j"], s["max_wait_s"], s["switch_offs"])
	}
}

// TestCostCarbon: the node runs a 4-cpu job 0–3600 s at 200 W: 720000 J
// = 0.2 kWh, 0.1 kWh before the series step at 1800 s and 0.1 after.
//
//	price 0.10 then 0.30 per kWh:  0.1 · 0.10 + 0.1 · 0.30 = 0.04
//	carbon 100 then 400 g/kWh:     0.1 · 100 + 0.1 · 400 = 50 g = 0.05 kg
func TestCostCarbon(t *testing.T) {
	price, err := sim.NewStepSeries([]sim.Time{0, 1800 * sim.Second}, []float64{0.10, 0.30})
	if err != nil {
		t.Fatal(err)
	}
	carbon, err := sim.NewStepSeries([]sim.Time{0, 1800 * sim.Second}, []float64{100, 400})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run(t, dir, oneSleepyNode(t), []*sim.Job{job("1", 0, 3600, -1, 1, 4)}, sim.Config{}, Options{Price: price, Carbon: carbon}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := func(k string) float64 {
		v, err := strconv.ParseFloat(s[k], 64)
		if err != nil {
			t.Fatalf("%s = %q", k, s[k])
		}
		return v
	}
	if got("energy_j") != 720000 || !near(got("energy_cost"), 0.04) || !near(got("carbon_kg"), 0.05) {
		t.Errorf("energy %s J, cost %s, carbon %s kg; want 720000, 0.04, 0.05", s["energy_j"], s["energy_cost"], s["carbon_kg"])
	}
	ts := readParquet(t, filepath.Join(dir, "timeseries.parquet"))
	if ts["price_per_kwh"][0] != 0.10 || ts["price_per_kwh"][1] != 0.30 || ts["carbon_g_per_kwh"][1] != 400.0 {
		t.Errorf("timeseries price %v carbon %v", ts["price_per_kwh"], ts["carbon_g_per_kwh"])
	}
}
