package policies

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// reservationLog records, after every pass, each queued job's reservation,
// and where and when each job started.
type reservationLog struct {
	nopObserver
	passes []string
	starts []string
}

func (r *reservationLog) Started(now sim.Time, j *sim.JobRun) {
	r.starts = append(r.starts, fmt.Sprintf("%s@%s%v", j.Job.ID, now, j.Nodes))
}

func (r *reservationLog) Stepped(now sim.Time, c *sim.Context) {
	var held []string
	for _, j := range c.Queue() {
		if res := reservationOf(j); res != nil {
			held = append(held, fmt.Sprintf("%s@%s%v", j.Job.ID, res.start, res.nodes))
		}
	}
	r.passes = append(r.passes, fmt.Sprintf("t=%s: %s", now, strings.Join(held, " ")))
}

// oneCPUNodes is a cluster of n nodes with one cpu each, h0, h1, …
func oneCPUNodes(t *testing.T, n int) *sim.Cluster {
	t.Helper()
	var nodes []sim.NodeSpec
	for i := 0; i < n; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("h%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wholeNodeJob takes `hosts` one-cpu nodes; times in seconds.
func wholeNodeJob(id string, submit, runtime, walltime sim.Time, hosts int) *sim.Job {
	return &sim.Job{ID: id, Submit: submit * sim.Second, Runtime: runtime * sim.Second, Walltime: walltime * sim.Second,
		Tasks: hosts, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}}
}

// replayConservative runs jobs on c under conservative backfilling with
// options o, jobs killed at their walltime, the invariant checker on.
func replayConservative(t *testing.T, c *sim.Cluster, jobs []*sim.Job, o Options) *reservationLog {
	t.Helper()
	return replayConservativeIndexed(t, c, jobs, o, defaultIndexFrom)
}

// replayConservativeIndexed is replayConservative with the summary index
// built from indexFrom live timelines on (small clusters use it with 2).
func replayConservativeIndexed(t *testing.T, c *sim.Cluster, jobs []*sim.Job, o Options, indexFrom int) *reservationLog {
	t.Helper()
	s, err := NewBatchWith(Conservative, c, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	s.(*conservative).indexFrom = indexFrom
	log := &reservationLog{}
	chk := sim.NewChecker(c)
	if err := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, s, sim.Config{KillAtWalltime: true}, log, chk).Run(); err != nil {
		t.Fatal(err)
	}
	if err := chk.Err(); err != nil {
		t.Fatal(err)
	}
	return log
}

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
		rule   Reservations
		at10   string
		starts string
	}{
		{Keep, "t=10: 2@50[1 2]", "0@0[0] 1@0[1 2] 3@10[0] 2@50[1 2]"},
		{Repick, "t=10: 2@50[0 1] 3@50[2]", "0@0[0] 1@0[1 2] 2@50[0 1] 3@50[2]"},
	} {
		t.Run(string(tc.rule), func(t *testing.T) {
			log := replayConservative(t, oneCPUNodes(t, 3), jobs(), Options{Reservations: tc.rule})
			if len(log.passes) < 2 || log.passes[0] != before || log.passes[1] != tc.at10 {
				t.Errorf("reservations after the first two passes:\ngot  %q\nwant %q, %q", log.passes, before, tc.at10)
			}
			if got := strings.Join(log.starts, " "); got != tc.starts {
				t.Errorf("starts:\ngot  %s\nwant %s", got, tc.starts)
			}
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
		for _, rule := range []Reservations{Keep, Repick} {
			t.Run(fmt.Sprintf("%s-%s", rule, tc.delay), func(t *testing.T) {
				log := replayConservative(t, oneCPUNodes(t, 3), jobs(), Options{Reservations: rule, PlanningDelay: tc.delay})
				if got := strings.Join(log.starts, " "); got != tc.starts {
					t.Errorf("starts:\ngot  %s\nwant %s", got, tc.starts)
				}
			})
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	if r, err := ParseReservations(""); err != nil || r != Keep {
		t.Errorf(`ParseReservations("") = %q, %v; want keep`, r, err)
	}
	if r, err := ParseReservations("repick"); err != nil || r != Repick {
		t.Errorf(`ParseReservations("repick") = %q, %v`, r, err)
	}
	if _, err := ParseReservations("move"); err == nil || !strings.Contains(err.Error(), "keep, repick") {
		t.Errorf(`ParseReservations("move") = %v; want an error listing keep, repick`, err)
	}
	for _, tc := range []struct {
		b    Backfill
		o    Options
		want string // "" for valid
	}{
		{Conservative, Options{}, ""},
		{Conservative, Options{Reservations: Repick, PlanningDelay: 5 * sim.Second}, ""},
		{EASY, Options{Reservations: Keep}, ""},
		{Conservative, Options{PlanningDelay: -1}, "≥ 0"},
		{Conservative, Options{Reservations: "other"}, "unknown reservations"},
		{EASY, Options{Reservations: Repick}, "conservative backfilling only"},
		{NoBackfill, Options{PlanningDelay: sim.Second}, "conservative backfilling only"},
	} {
		err := tc.o.Validate(tc.b)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s %+v: got %v, want %q", tc.b, tc.o, err, tc.want)
		}
	}
}
