package metrics

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestJain: 1 for equal values, 1/n when one tenant has everything, the
// formula in between, undefined (NaN → null) for nothing.
func TestJain(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 3, 3, 3}, 1},
		{[]float64{5, 0, 0, 0}, 0.25}, // 5² / (4·5²)
		{[]float64{7, 0}, 0.5},
		{[]float64{1, 2}, 0.9},          // (1+2)² / (2·(1+4)) = 9/10
		{[]float64{1, 2, 3}, 36.0 / 42}, // 6² / (3·14)
		{[]float64{4}, 1},
	} {
		if g := jain(c.xs); !near(g, c.want) {
			t.Errorf("jain(%v) = %v, want %v", c.xs, g, c.want)
		}
	}
	for _, xs := range [][]float64{nil, {0, 0}} {
		if g := jain(xs); !math.IsNaN(g) {
			t.Errorf("jain(%v) = %v, want NaN", xs, g)
		}
	}
}

// tenantsCSV reads tenants.csv as tenant → column → value.
func tenantsCSV(t *testing.T, dir string) (map[string]map[string]string, []string) {
	t.Helper()
	header, rows := readCSV(t, filepath.Join(dir, "tenants.csv"))
	out := map[string]map[string]string{}
	var order []string
	for _, r := range rows {
		m := map[string]string{}
		for i, h := range header {
			m[h] = r[i]
		}
		out[m["tenant"]] = m
		order = append(order, m["tenant"])
	}
	return out, order
}

func checkFloats(t *testing.T, what string, got map[string]string, want map[string]float64) {
	t.Helper()
	for k, w := range want {
		g, err := strconv.ParseFloat(got[k], 64)
		if err != nil || !near(g, w) {
			t.Errorf("%s %s = %q, want %v", what, k, got[k], w)
		}
	}
}

// TestTenantsHandComputed replays sevenJobs (users u1…u7, see
// TestHandComputed for the schedule) with two tenant buckets, t0 = u2 u4
// u6 and t1 = u1 u3 u5 u7, and shares t0 1 : t1 3 (targets 0.25, 0.75).
//
//	t0: jobs 2 4 6; waits 0 35 35 → mean 70/3, p95 h = 2·0.95 = 1.9 → 35;
//	    bsld 1 2.75 3.5 → 7.25/3; usage cpu·s 2·2·50 + 4·20 + 0 = 280
//	t1: jobs 1 3 5 7 (5 rejected: counted, never started); waits 0 10 40 →
//	    mean 50/3, p95 h = 1.9 → 10 + 0.9·30 = 37; bsld 1 4.5 2 → 2.5;
//	    usage 4·100 + 4·5 + 2·3·10 = 480
//	total 760 (= the summary's cpu·s); shares 7/19 and 12/19;
//	deficit t0 0 (above target), t1 (3/4 − 12/19)/(3/4) = 3/19
//	jain_bsld over (29/12, 30/12): 59² / (2·(29² + 30²)) = 3481/3482
//	jain_usage_share over share/target (28/19, 16/19):
//	    44² / (2·(28² + 16²)) = 1936/2080 = 121/130
func TestTenantsHandComputed(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true},
		Options{Format: FormatCSV, TenantBuckets: 2, Shares: map[string]float64{"t0": 1, "t1": 3}}, FinalInfo{})
	rows, order := tenantsCSV(t, dir)
	if len(order) != 2 || order[0] != "t0" || order[1] != "t1" {
		t.Fatalf("tenants %v, want [t0 t1]", order)
	}
	if rows["t0"]["jobs"] != "3" || rows["t1"]["jobs"] != "4" {
		t.Errorf("jobs t0 %s t1 %s, want 3 4", rows["t0"]["jobs"], rows["t1"]["jobs"])
	}
	checkFloats(t, "t0", rows["t0"], map[string]float64{"mean_wait_s": 70.0 / 3, "p95_wait_s": 35, "mean_bsld": 7.25 / 3,
		"usage": 280, "usage_share": 7.0 / 19, "target_share": 0.25, "deficit": 0})
	checkFloats(t, "t1", rows["t1"], map[string]float64{"mean_wait_s": 50.0 / 3, "p95_wait_s": 37, "mean_bsld": 2.5,
		"usage": 480, "usage_share": 12.0 / 19, "target_share": 0.75, "deficit": 3.0 / 19})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "summary", s, map[string]float64{"jain_bsld": 3481.0 / 3482, "jain_usage_share": 121.0 / 130})
}

// TestTenantsMeanDeficit: two 2-task × 4-cpu jobs of users u0 (10 s)
// and u1 (30 s), submitted at 0, each needing both nodes, so u0 runs
// [0,10) and u1 [10,40); then u0's second job, submitted at 100, runs
// [100,110) after an idle gap that does not count. Equal shares (1/2
// each, both seen at 0). Deficit of held share:
//
//	[0,10):    u0 holds all → u0 0, u1 (1/2 − 0)/(1/2) = 1
//	[10,40):   u1 holds all → u0 1, u1 0
//	[40,100):  idle, not counted
//	[100,110): u0 holds all → u0 0, u1 1
//
// mean_deficit over 50 busy s: u0 30/50 = 0.6, u1 20/50 = 0.4.
// usage u0 80 + 80 = 160, u1 240 → shares 0.4, 0.6; end deficit u0
// (0.5 − 0.4)/0.5 = 0.2, u1 0. jain_usage_share over (0.8, 1.2):
// 2²/(2·(0.64 + 1.44)) = 4/4.16. bsld u0 1 and 1, u1 40/30 → means
// (1, 4/3): (7/3)²/(2·(1 + 16/9)) = 49/50.
func TestTenantsMeanDeficit(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), []*sim.Job{job("0", 0, 10, -1, 2, 4), job("1", 0, 30, -1, 2, 4), u0(job("2", 100, 10, -1, 2, 4))}, sim.Config{},
		Options{Format: FormatCSV}, FinalInfo{})
	rows, order := tenantsCSV(t, dir)
	if len(order) != 2 || order[0] != "u0" {
		t.Fatalf("tenants %v", order)
	}
	checkFloats(t, "u0", rows["u0"], map[string]float64{"usage": 160, "usage_share": 0.4, "target_share": 0.5, "deficit": 0.2, "mean_deficit": 0.6})
	checkFloats(t, "u1", rows["u1"], map[string]float64{"usage": 240, "usage_share": 0.6, "target_share": 0.5, "deficit": 0, "mean_deficit": 0.4})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "summary", s, map[string]float64{"jain_bsld": 49.0 / 50, "jain_usage_share": 4 / 4.16})
}

func u0(j *sim.Job) *sim.Job { j.User = "u0"; return j }

// TestTenantsNone: no jobs → an empty tenants table and null Jain columns;
// a bad tenants key is refused.
func TestTenantsNone(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), nil, sim.Config{}, Options{Format: FormatCSV, Tenants: TenantsByGroup}, FinalInfo{})
	if _, order := tenantsCSV(t, dir); len(order) != 0 {
		t.Errorf("tenants %v", order)
	}
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s["jain_bsld"] != "" || s["jain_usage_share"] != "" {
		t.Errorf("jain %q %q, want null", s["jain_bsld"], s["jain_usage_share"])
	}
	for _, o := range []Options{{Tenants: "account"}, {TenantBuckets: -1}, {Shares: map[string]float64{"a": 0}},
		{Shares: map[string]float64{"a": -1}}} {
		if _, err := NewRecorder(t.TempDir(), twoNodes(t), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
