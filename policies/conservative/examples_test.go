package conservative

import (
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestRepickWorkedExample is the example that tells the two reservation
// rules apart. Three one-cpu hosts h0 h1 h2; every job is submitted at 0:
//
//	job 0: 1 host, walltime 1000, runtime 10 → starts at 0 on h0.
//	job 1: 2 hosts, 50 s                     → starts at 0 on h1 h2.
//	job 2: 2 hosts, walltime 100: only h0 is free before 50, and h0 is
//	       busy until 1000, so the first fit is 50 on h1 h2, [50, 150).
//	job 3: 1 host, walltime 60: h0 is busy until 1000; h1 h2 are busy
//	       until 50, then held by job 2 until 150, so the first fit is
//	       150 on h1, [150, 210).
//
// Job 0 ends at 10, 990 s early; h0 is free from 10.
//
//	keep:   job 2 cannot start before 50 (one host free), so it keeps
//	        h1 h2. Job 3 fits h0 over [10, 70) and starts at 10 on h0.
//	repick: job 2 is taken out and put back at its first fit: still 50,
//	        but now h0 h1 h2 are all free over [50, 150), so the
//	        lowest-numbered two, h0 h1. Job 3: h0 is held from 50 so
//	        [10, 70) fails; h1 h2 are busy until 50; at 50 h2 is free
//	        over [50, 110): it starts at 50 on h2.
func TestRepickWorkedExample(t *testing.T) {
	jobs := func() []*sim.Job {
		return []*sim.Job{
			wholeNodeJob("0", 0, 10, 1000, 1),
			wholeNodeJob("1", 0, 50, 50, 2),
			wholeNodeJob("2", 0, 100, 100, 2),
			wholeNodeJob("3", 0, 60, 60, 1),
		}
	}
	before := "t=0: 2@50[1 2] 3@150[1]"
	for _, tc := range []struct {
		rule   string
		cfg    Config
		at10   string
		starts string
	}{
		{"keep", Config{}, "t=10: 2@50[1 2]", "0@0[0] 1@0[1 2] 3@10[0] 2@50[1 2]"},
		{"repick", Config{Repick: true}, "t=10: 2@50[0 1] 3@50[2]", "0@0[0] 1@0[1 2] 2@50[0 1] 3@50[2]"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			log := replay(t, oneCPUNodes(t, 3), jobs(), tc.cfg)
			if len(log.passes) < 2 || log.passes[0] != before || log.passes[1] != tc.at10 {
				t.Errorf("reservations after the first two passes:\ngot  %q\nwant %q, %q", log.passes, before, tc.at10)
			}
			wantStarts(t, log, tc.starts)
		})
	}
}

// TestPlanningDelay: the delay pads every planned walltime, so a reservation
// two planned ends away moves 2δ later while a job starting now ends δ
// later, and a slightly longer job fits beside it. Three one-cpu hosts,
// every job submitted at 0, runtimes equal to walltimes:
//
//	A: 2 hosts, 100 s → starts at 0 on h0 h1; planned end 100+δ.
//	E: 2 hosts, 50 s  → reserved at 100+δ on h0 h1, until 150+2δ.
//	B: 3 hosts, 10 s  → reserved at 150+2δ.
//	C: 1 host, 152 s  → h2 is free now; [0, 152+δ) must end by B's start
//	                    150+2δ: false with δ = 0, true with δ = 5.
//
// δ = 0: A ends at 100, E runs [100, 150), B [150, 160), C at 160 on h0.
// δ = 5: C starts at 0 on h2 and holds it until 152 (planned 157). A ends
// at 100 and E starts (planned end 155); B must wait for h2 until C ends at
// 152. The jobs are still killed at their walltime: C's 152 s are its own.
func TestPlanningDelay(t *testing.T) {
	jobs := func() []*sim.Job {
		return []*sim.Job{
			wholeNodeJob("A", 0, 100, 100, 2),
			wholeNodeJob("E", 0, 50, 50, 2),
			wholeNodeJob("B", 0, 10, 10, 3),
			wholeNodeJob("C", 0, 152, 152, 1),
		}
	}
	for _, tc := range []struct {
		delay  sim.Time
		starts string
	}{
		{0, "A@0[0 1] E@100[0 1] B@150[0 1 2] C@160[0]"},
		{5 * sim.Second, "A@0[0 1] C@0[2] E@100[0 1] B@152[0 1 2]"},
	} {
		for _, repick := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s-%s", ruleName(repick), tc.delay), func(t *testing.T) {
				wantStarts(t, replay(t, oneCPUNodes(t, 3), jobs(), Config{Repick: repick, PlanningDelay: tc.delay}), tc.starts)
			})
		}
	}
}
