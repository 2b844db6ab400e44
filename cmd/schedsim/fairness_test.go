package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// fairnessRun replays the embedded KTH-SP2 log with the synthetic tenants
// of testdata/lattice/kth-tenants.yaml (user id mod 4, shares 10/20/30/40)
// under profile, and returns the tenants table (tenant → column → value)
// and the summary.
func fairnessRun(t *testing.T, profile string) (map[string]map[string]float64, []string, map[string]string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--format", "csv", "--out", out,
		"--config", filepath.Join(latticeData, "kth-tenants.yaml"), "--profile", profile); err != nil {
		t.Fatalf("%s: %v", profile, err)
	}
	f, err := os.Open(filepath.Join(out, "tenants.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]float64{}
	var order []string
	for _, r := range all[1:] {
		m := map[string]float64{}
		for i, h := range all[0][1:] {
			if m[h], err = strconv.ParseFloat(r[i+1], 64); err != nil {
				t.Fatalf("%s: tenants.csv %s %s = %q", profile, r[0], h, r[i+1])
			}
		}
		rows[r[0]] = m
		order = append(order, r[0])
	}
	s, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return rows, order, s
}

// TestFairnessTenants: the tenants table and the Jain columns move the way
// the fair-share weight says, on the lattice KTH-SP2 replay of
// TestLatticeReplayProfiles. wait-only and fair-only differ only in the
// weight. Every job of the log runs to completion under both, so
// end-of-run usage shares (t0 17.7 %, t1 22.0 %, t2 26.2 %, t3 34.1 % of
// the cpu-seconds against targets 10/20/30/40 %) are fixed by the trace,
// and so is the end-of-run deficit; the schedule shows in mean_deficit
// (the deficit of held share over the busy time) and in the waits.
// Asserted (directions, not numbers):
//
//   - four rows t0…t3, targets 0.1…0.4, both Jain columns in [1/4, 1];
//   - the most under-served tenant (largest end-of-run deficit: t3) has
//     the same deficit under both (the trace fixes it) and a lower
//     mean_deficit under fair-only (0.4089 → 0.4080 when written: small,
//     demand dominates who holds the machine, but deterministic);
//   - jain_bsld goes down under fair-only (0.950 → 0.894): the factor
//     serves the contracted shares, not equal slowdowns — t3's mean bsld
//     drops from 72 to 42 while over-served t0 stays near 110.
func TestFairnessTenants(t *testing.T) {
	if testing.Short() {
		t.Skip("two full replays")
	}
	type run struct {
		rows  map[string]map[string]float64
		order []string
		sum   map[string]string
	}
	runs := map[string]run{}
	for _, p := range []string{"wait-only", "fair-only"} {
		rows, order, s := fairnessRun(t, p)
		runs[p] = run{rows, order, s}
		for _, ten := range order {
			r := rows[ten]
			t.Logf("%-9s %s jobs %5.0f wait %6.0f s p95 %7.0f s bsld %7.2f share %.4f target %.2f deficit %.4f mean_deficit %.4f",
				p, ten, r["jobs"], r["mean_wait_s"], r["p95_wait_s"], r["mean_bsld"], r["usage_share"], r["target_share"], r["deficit"], r["mean_deficit"])
		}
		t.Logf("%-9s jain_bsld %s jain_usage_share %s", p, s["jain_bsld"], s["jain_usage_share"])
		if len(order) != 4 || order[0] != "t0" || order[3] != "t3" {
			t.Fatalf("%s: tenants %v, want t0…t3", p, order)
		}
		for i, ten := range order {
			if g, w := rows[ten]["target_share"], 0.1*float64(i+1); g < w-1e-12 || g > w+1e-12 {
				t.Errorf("%s: %s target %v, want %v", p, ten, g, w)
			}
		}
		for _, c := range []string{"jain_bsld", "jain_usage_share"} {
			v, err := strconv.ParseFloat(s[c], 64)
			if err != nil || v < 0.25 || v > 1 {
				t.Errorf("%s: %s = %q, want in [1/4, 1]", p, c, s[c])
			}
		}
	}
	w, f := runs["wait-only"], runs["fair-only"]
	// The most under-served tenant: the largest end-of-run deficit.
	under := w.order[0]
	for _, ten := range w.order {
		if w.rows[ten]["deficit"] > w.rows[under]["deficit"] {
			under = ten
		}
	}
	maxMean := func(r run) float64 {
		m := 0.0
		for _, ten := range r.order {
			m = max(m, r.rows[ten]["mean_deficit"])
		}
		return m
	}
	jb := func(r run) float64 { v, _ := strconv.ParseFloat(r.sum["jain_bsld"], 64); return v }
	t.Logf("most under-served %s: deficit %.4f → %.4f, mean_deficit %.4f → %.4f; max mean_deficit %.4f → %.4f; jain_bsld %.4f → %.4f",
		under, w.rows[under]["deficit"], f.rows[under]["deficit"], w.rows[under]["mean_deficit"], f.rows[under]["mean_deficit"],
		maxMean(w), maxMean(f), jb(w), jb(f))
	if d := w.rows[under]["deficit"] - f.rows[under]["deficit"]; d > 1e-6 || d < -1e-6 {
		t.Errorf("%s: end-of-run deficit %v vs %v: the trace fixes usage", under, w.rows[under]["deficit"], f.rows[under]["deficit"])
	}
	if f.rows[under]["mean_deficit"] >= w.rows[under]["mean_deficit"] {
		t.Errorf("%s: fair-only mean_deficit %v not below wait-only's %v", under, f.rows[under]["mean_deficit"], w.rows[under]["mean_deficit"])
	}
	if jb(f) >= jb(w) {
		t.Errorf("jain_bsld: fair-only %v not below wait-only %v", jb(f), jb(w))
	}
}
