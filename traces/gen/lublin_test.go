package gen

import (
	"io"
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// lublinSample is the statistics of one job type in a generated trace.
type lublinSample struct {
	jobs, serial, pow2 int
	sizes              []int
	logRuntime         []float64
}

func generateLublin(t *testing.T, jobs int, seed uint64) (map[string]*lublinSample, []*sim.Job) {
	t.Helper()
	g, err := New("lublin", Options{Jobs: jobs, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]*lublinSample{"batch": {}, "interactive": {}}
	var all []*sim.Job
	for j := range tracetest.Jobs(t, g) {
		s := byType[j.Queue]
		if s == nil {
			t.Fatalf("job %s: queue %q, want batch or interactive", j.ID, j.Queue)
		}
		s.jobs++
		if j.Tasks == 1 {
			s.serial++
		} else if j.Tasks&(j.Tasks-1) == 0 {
			s.pow2++
		}
		s.sizes = append(s.sizes, j.Tasks)
		s.logRuntime = append(s.logRuntime, math.Log(j.Runtime.Seconds()))
		all = append(all, j)
	}
	return byType, all
}

// TestLublinMatchesParameters checks the generated sizes and runtimes
// against what the published parameters imply, per job type, each within
// five standard errors of the sample (a wrong parameter or a wrong branch
// moves a statistic by far more: see the comments).
func TestLublinMatchesParameters(t *testing.T) {
	const jobs = 200_000
	byType, _ := generateLublin(t, jobs, 42)
	p := LublinPublished()
	for _, typ := range []LublinType{p.Batch, p.Interactive} {
		s := byType[typ.Name]
		if s.jobs < 10_000 {
			t.Fatalf("%s: only %d jobs of %d", typ.Name, s.jobs, jobs)
		}
		n := float64(s.jobs)
		fiveSE := func(p float64) float64 { return 5 * math.Sqrt(p*(1-p)/n) }

		// Serial share: ULow ≥ 1, so a parallel job has 2^e ≥ 2 and
		// round(2^e) ≥ 2; size 1 comes from the serial branch only:
		// batch 0.2927, interactive 0.1541.
		if got := float64(s.serial) / n; math.Abs(got-typ.SerialProb) > fiveSE(typ.SerialProb) {
			t.Errorf("%s: serial share %.4f, want %.4f ± %.4f", typ.Name, got, typ.SerialProb, fiveSE(typ.SerialProb))
		}

		// Power-of-two share (sizes 2, 4, 8, …): the power-of-two branch
		// (Pow2Prob) plus the jobs of the other parallel branch (share
		// 1 − SerialProb − Pow2Prob; batch 0.0387, interactive 0.2209) whose
		// round(2^e) happens to be 2^k: e ∈ [log2(2^k − ½), log2(2^k + ½)).
		// For batch, k = 2 alone is e ∈ [1.807, 2.170), probability
		// 0.363 · 0.875/3.8 = 0.084; all k give q ≈ 0.18, so the expected
		// share is 0.6686 + 0.0387 · 0.18 ≈ 0.6756.
		q := 0.0
		for k := 1; float64(k) <= typ.UHi+1; k++ {
			lo := math.Log2(math.Exp2(float64(k)) - 0.5)
			hi := math.Log2(math.Exp2(float64(k)) + 0.5)
			q += twoStageMass(typ, lo, hi)
		}
		wantPow2 := typ.Pow2Prob + (1-typ.SerialProb-typ.Pow2Prob)*q
		if got := float64(s.pow2) / n; math.Abs(got-wantPow2) > fiveSE(wantPow2) {
			t.Errorf("%s: power-of-two share %.4f, want %.4f ± %.4f (q = %.4f)", typ.Name, got, wantPow2, fiveSE(wantPow2), q)
		}

		// Mean ln(runtime): given size m, ln(runtime) is Gamma(A1, B1) with
		// probability p = PA·m + PB, else Gamma(A2, B2), redrawn above 12.
		// For X ~ Gamma(k, θ), P(X ≤ c) = P(k, c/θ) (regularized lower
		// incomplete gamma) and E[X; X ≤ c] = kθ · P(k+1, c/θ), so
		//   E[ln r | m] = (p·k1θ1·P(k1+1, 12/θ1) + (1−p)·k2θ2·P(k2+1, 12/θ2))
		//               / (p·P(k1, 12/θ1) + (1−p)·P(k2, 12/θ2)).
		// Untruncated, batch would be p·6.57·0.823 + (1−p)·639.1·0.0156 =
		// p·5.407 + (1−p)·9.970; the truncation lowers the first gamma's
		// mean by ~0.04. The expectation is averaged over the jobs' sizes.
		want, mean := 0.0, 0.0
		for i, m := range s.sizes {
			want += expectedLogRuntime(typ, m)
			mean += s.logRuntime[i]
		}
		want /= n
		mean /= n
		variance := 0.0
		for _, x := range s.logRuntime {
			variance += (x - mean) * (x - mean)
		}
		tol := 5 * math.Sqrt(variance/(n-1)/n)
		if math.Abs(mean-want) > tol {
			t.Errorf("%s: mean ln(runtime) %.4f, want %.4f ± %.4f", typ.Name, mean, want, tol)
		}
	}
}

// twoStageMass is the probability that the two-stage uniform exponent of
// t falls in [lo, hi).
func twoStageMass(t LublinType, lo, hi float64) float64 {
	overlap := func(a, b float64) float64 { return max(0, min(hi, b)-max(lo, a)) }
	return t.UProb*overlap(t.ULow, t.UMed)/(t.UMed-t.ULow) + (1-t.UProb)*overlap(t.UMed, t.UHi)/(t.UHi-t.UMed)
}

// expectedLogRuntime is E[ln(runtime)] of a job of m nodes, with the
// redraw above lublinMaxLogRuntime (see TestLublinMatchesParameters).
func expectedLogRuntime(t LublinType, m int) float64 {
	p := min(max(t.PA*float64(m)+t.PB, 0), 1)
	c := float64(lublinMaxLogRuntime)
	num := p*t.A1*t.B1*mathext.GammaIncReg(t.A1+1, c/t.B1) + (1-p)*t.A2*t.B2*mathext.GammaIncReg(t.A2+1, c/t.B2)
	den := p*mathext.GammaIncReg(t.A1, c/t.B1) + (1-p)*mathext.GammaIncReg(t.A2, c/t.B2)
	return num / den
}

// TestLublinDailyCycle checks that arrivals follow the daily cycle: in the
// long run a bucket receives arrivals in proportion to its weight (the
// clock runs through it at 1/weight of operational time, and operational
// time has a constant arrival rate), so the share of a type's jobs that
// arrive in each 4-hour block is the sum of its 8 weights / 48.
func TestLublinDailyCycle(t *testing.T) {
	const jobs = 200_000
	_, all := generateLublin(t, jobs, 7)
	p := LublinPublished()
	for _, typ := range []LublinType{p.Batch, p.Interactive} {
		w := dailyCycle(typ.ANum, typ.BNum)
		var got [6]float64
		n := 0.0
		for _, j := range all {
			if j.Queue != typ.Name {
				continue
			}
			hour := int(j.Submit.Seconds()/3600) % 24
			got[hour/4]++
			n++
		}
		for b := range got {
			want := 0.0
			for _, x := range w[b*8 : b*8+8] {
				want += x / lublinBuckets
			}
			// Inter-arrival times are far from exponential (and the
			// batch ones heavy-tailed), so arrivals cluster: allow a
			// quarter of the block's share, or 0.01, whichever is more.
			// The quietest block (0–4 h) has ~2% of the jobs, the
			// busiest (12–16 h) ~35%: a cycle that were ignored or
			// shifted by 4 h would miss by far more.
			tol := max(0.25*want, 0.01)
			if share := got[b] / n; math.Abs(share-want) > tol {
				t.Errorf("%s: share of arrivals in %02d–%02d h: %.4f, want %.4f ± %.4f", typ.Name, 4*b, 4*b+4, share, want, tol)
			}
		}
	}
}

// TestLublinSizesWithinMachine checks sizes against the machine: batch
// sizes ≤ 2^UHi = nodes, interactive ≤ round(2^(UHi − 1.5)).
func TestLublinSizesWithinMachine(t *testing.T) {
	for _, nodes := range []int{32, 128, 1000} {
		g, err := New("lublin", Options{Jobs: 20000, Seed: 3, Nodes: nodes})
		if err != nil {
			t.Fatal(err)
		}
		interactiveMax := int(math.Floor(math.Exp2(math.Log2(float64(nodes))-1.5) + 0.5))
		var last sim.Time
		for {
			j, err := g.Next()
			if err == io.EOF {
				break
			}
			limit := nodes
			if j.Queue == "interactive" {
				limit = interactiveMax
			}
			if j.Tasks < 1 || j.Tasks > limit {
				t.Fatalf("nodes %d: job %s (%s) has %d tasks, want 1…%d", nodes, j.ID, j.Queue, j.Tasks, limit)
			}
			if j.Submit < last {
				t.Fatalf("nodes %d: job %s submitted at %s before %s", nodes, j.ID, j.Submit, last)
			}
			if j.Runtime <= 0 || j.Runtime.Seconds() > math.Exp(lublinMaxLogRuntime)+1 {
				t.Fatalf("nodes %d: job %s runtime %s", nodes, j.ID, j.Runtime)
			}
			last = j.Submit
		}
		if c := g.Cluster(); c.Nodes() != nodes {
			t.Errorf("cluster has %d nodes, want %d", c.Nodes(), nodes)
		}
	}
	if _, err := New("lublin", Options{Jobs: 1, Nodes: 16}); err == nil {
		t.Error("16 nodes: want an error (UMed would fall below ULow)")
	}
}
