package lattice

import (
	"math"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// The seed's weight table, column by column, copied from
// ../shared/seeds/lattice-scheduling.txt, and CostWeights::default().
func TestProfileTable(t *testing.T) {
	//                     w1    w2    w3    w4    w5    w6    w7    w8    w9
	seed := map[string][9]float64{
		"hpc-batch":   {0.15, 0.20, 0.20, 0.15, 0.10, 0.05, 0.00, 0.05, 0.10},
		"ml-training": {0.10, 0.10, 0.10, 0.25, 0.15, 0.05, 0.05, 0.10, 0.10},
		"service":     {0.15, 0.05, 0.10, 0.05, 0.10, 0.05, 0.10, 0.10, 0.30},
		"sensitive":   {0.90, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.10},
		"interactive": {0.10, 0.30, 0.10, 0.00, 0.05, 0.15, 0.00, 0.00, 0.30},
		"default":     {0.20, 0.20, 0.20, 0.15, 0.10, 0.05, 0.00, 0.00, 0.10},
	}
	if got := strings.Join(BuiltinNames(), ","); got != "default,hpc-batch,interactive,ml-training,sensitive,service" {
		t.Errorf("names %s", got)
	}
	for name, want := range seed {
		p, ok := Builtin(name)
		if !ok {
			t.Fatalf("%s missing", name)
		}
		if [9]float64(p.Weights) != want {
			t.Errorf("%s = %v, want %v", name, p.Weights, want)
		}
		var sum float64
		for _, w := range p.Weights {
			sum += w
		}
		// Every column of the seed sums to 1 (default too).
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s sums to %g", name, sum)
		}
		if p.RequireConformance != (name == "sensitive") {
			t.Errorf("%s: conformance required = %v", name, p.RequireConformance)
		}
	}
	if got := strings.Join(FactorNames(), ","); got != "priority,wait_time,fair_share,topology,data_ready,backlog,energy,checkpoint,conformance" {
		t.Errorf("factor names %s", got)
	}
}

func TestProfileFile(t *testing.T) {
	pf, err := ParseProfiles([]byte(`
profile: mine
profiles:
  mine:
    weights: {priority: 0.5, wait_time: 0.25, fair_share: 0.25}
  strict:
    weights: {priority: 1}
    conformance: required
queues:
  q1: strict
  q2: service
`))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := pf.Resolve(map[string]string{"q3": "sensitive"})
	if err != nil {
		t.Fatal(err)
	}
	if ps.Run.Name != "mine" || ps.Run.Weights != (Weights{0.5, 0.25, 0.25}) {
		t.Errorf("run profile %+v", ps.Run)
	}
	for q, want := range map[string]string{"q1": "strict", "q2": "service", "q3": "sensitive", "other": "mine", "": "mine"} {
		if got := ps.For(q).Name; got != want {
			t.Errorf("queue %q → %s, want %s", q, got, want)
		}
	}
	if !ps.For("q1").RequireConformance || ps.For("q2").RequireConformance {
		t.Error("conformance requirement not carried")
	}
}

// Every problem at once, each with its line.
func TestProfileFileErrors(t *testing.T) {
	_, err := ParseProfiles([]byte(`profiles:
  a:
    weights: {priority: 0.5, speed: 1}
  b:
    weights:
      priority: -0.2
  c:
    weights: {priority: 0, wait_time: 0}
  hpc-batch:
    weights: {priority: 1}
  d:
    conformance: maybe
    weights: {energy: x}
queues:
  q: nowhere
extra: 1
`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`line 3: profile a: unknown factor "speed"`,
		`line 6: profile b: weight priority is negative (-0.2)`,
		`line 7: profile c: all weights are zero`,
		`line 9: profile "hpc-batch" redefines a built-in profile`,
		`line 12: profile d: conformance: want preferred or required, got "maybe"`,
		`line 13: profile d: weight energy: want a number, got "x"`,
		`line 16: unknown key "extra"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	// Name errors show once the file itself is sound.
	_, err = ParseProfiles([]byte("profile: ghost\nprofiles:\n  a: {weights: {priority: 1}}\nqueues:\n  q: nowhere\n"))
	for _, want := range []string{`line 1: profile: "ghost" is not defined`, `line 5: queues.q: "nowhere" is not defined`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, err := NamedProfiles("nope", nil, nil); err == nil {
		t.Error("unknown run profile accepted")
	}
}

// rankProbe records the ranking of the pass at one time.
type rankProbe struct {
	*Scheduler
	at   sim.Time
	seen []Ranked
}

func (p *rankProbe) Schedule(c *sim.Context) error {
	err := p.Scheduler.Schedule(c)
	if c.Now() == p.at {
		p.seen = append([]Ranked(nil), p.Scheduler.Ranking()...)
	}
	return err
}

// Switching profile changes the order exactly as the formula says. One
// node; a blocker runs 0–7200 s; B (priority 0) waits from 0, A
// (priority 10) from 3600. At 7200 only one of them fits. All their other
// factors are equal (same request, same fair-share deficit 1: users uB
// and uA have used nothing, the blocker's user all), so
//
//	Score(A) − Score(B) = w₁·(1 − 0) + w₂·(ln 2 − ln 3)
//	                    = w₁ − w₂·0.405465
//
//	sensitive   0.90 − 0.00·0.405465 = +0.900000 → A first
//	hpc-batch   0.15 − 0.20·0.405465 = +0.068907 → A first
//	interactive 0.10 − 0.30·0.405465 = −0.021640 → B first
//	ml-training 0.10 − 0.10·0.405465 = +0.059453 → A first
func TestProfileSwitchOrder(t *testing.T) {
	diff := math.Log(2) - math.Log(3)
	for _, c := range []struct {
		profile string
		first   string
	}{{"sensitive", "A"}, {"hpc-batch", "A"}, {"interactive", "B"}, {"ml-training", "A"}, {"default", "A"}} {
		t.Run(c.profile, func(t *testing.T) {
			cl := nodesCluster(t, 1, nil)
			ps, err := NamedProfiles(c.profile, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(cl, Config{Profiles: ps})
			if err != nil {
				t.Fatal(err)
			}
			probe := &rankProbe{Scheduler: s, at: secs(7200)}
			blocker, b, a := job("X", 0, 7200, 1), job("B", 0, 100, 1), job("A", 3600, 100, 1)
			a.Priority = 10
			out := runWith(t, cl, probe, blocker, b, a)
			first, second := "A", "B"
			if out["B"].start < out["A"].start {
				first, second = "B", "A"
			}
			if first != c.first || out[first].start != secs(7200) || out[second].start != secs(7300) {
				t.Errorf("%s: A %v, B %v; want %s first at 7200", c.profile, out["A"], out["B"], c.first)
			}
			if len(probe.seen) != 2 {
				t.Fatalf("ranking at 7200: %d jobs", len(probe.seen))
			}
			score := map[string]float64{}
			for _, r := range probe.seen {
				score[r.Job.Job.ID] = r.Score
				near(t, r.Job.Job.ID+" f3", r.Factors[FFairShare], 1)
			}
			w := ps.Run.Weights
			near(t, "Score(A) − Score(B)", score["A"]-score["B"], w[FPriority]+w[FWaitTime]*diff)
		})
	}
}
