package sim

import (
	"strings"
	"testing"
)

// powerLog integrates the draw between instants, as the metrics recorder
// does, and logs starts (decision time and run start) and power changes.
type powerLog struct {
	log
	lastT   Time
	lastW   float64
	energyJ float64
}

func (p *powerLog) Started(now Time, j *JobRun) {
	p.add("start " + j.Job.ID + " @" + now.String() + " runs @" + j.Start.String())
}
func (p *powerLog) PowerChanged(now Time, n int, s PowerState) {
	p.add("node" + string(rune('a'+n)) + " " + s.String() + " @" + now.String())
}
func (p *powerLog) Stepped(now Time, c *Context) {
	p.energyJ += p.lastW * (now - p.lastT).Seconds()
	p.lastT, p.lastW = now, c.PowerW()
}

// sleepyNodes: n nodes of 4 cpus drawing 100 W idle, 200 W busy, 10 W
// asleep; switching off takes 2 s at 50 W (100 J), on 5 s at 80 W (400 J).
func sleepyNodes(t *testing.T, n int) *Cluster {
	pm := PowerModel{IdleW: 100, MaxW: 200, OffW: 10, SwitchOff: PowerSwitch{2 * Second, 50}, SwitchOn: PowerSwitch{5 * Second, 80}}
	var specs []NodeSpec
	for i := 0; i < n; i++ {
		specs = append(specs, NodeSpec{Name: string(rune('a' + i)), Capacity: []Quantity{{"cpu", Units(4)}}, Power: pm})
	}
	c, err := NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runPower(t *testing.T, c *Cluster, pd *PowerDown, jobs ...*Job) *powerLog {
	t.Helper()
	l := &powerLog{}
	runChecked(t, c, firstFitFCFS{}, Config{PowerDown: pd}, l, jobs...)
	return l
}

func TestPowerDownSchedule(t *testing.T) {
	cpu4 := Quantity{"cpu", Units(4)}
	l := runPower(t, sleepyNodes(t, 2), &PowerDown{After: 10 * Second},
		job("j1", 0, 4, NoWalltime, 1, cpu4),  // a, 0–4
		job("j3", 15, 2, NoWalltime, 1, cpu4), // a, switching off until 16: on at 16 + 5 = 21, runs 21–23
		job("j2", 20, 3, NoWalltime, 1, cpu4), // b, asleep: on at 20 + 5 = 25, runs 25–28
	)
	want := "start j1 @0 runs @0|completed j1 @4|" +
		"nodeb switching_off @10|nodeb asleep @12|" + // idle since 0
		"nodea switching_off @14|" + // idle since 4
		"start j3 @15 runs @21|nodea asleep @16|nodea switching_on @16|" +
		"nodeb switching_on @20|start j2 @20 runs @25|" +
		"nodea on @21|completed j3 @23|nodeb on @25|completed j2 @28|finished @28"
	if got := strings.Join(l.lines, "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Piece by piece (a + b):
	//   0–4   200 + 100 = 300 W × 4 s     = 1200 J
	//   4–10  100 + 100 = 200 W × 6 s     = 1200 J
	//  10–12  100 +  50 = 150 W × 2 s     =  300 J
	//  12–14  100 +  10 = 110 W × 2 s     =  220 J
	//  14–16   50 +  10 =  60 W × 2 s     =  120 J
	//  16–20   80 +  10 =  90 W × 4 s     =  360 J
	//  20–21   80 +  80 = 160 W × 1 s     =  160 J
	//  21–23  200 +  80 = 280 W × 2 s     =  560 J
	//  23–25  100 +  80 = 180 W × 2 s     =  360 J
	//  25–28  100 + 200 = 300 W × 3 s     =  900 J
	//  total 5380 J
	if l.energyJ != 5380 {
		t.Errorf("energy %g J, want 5380", l.energyJ)
	}
}

// TestPowerDownSaves: one node, two jobs far apart. Powered down, the
// second job starts exactly the switch-on time (5 s) late and the energy
// falls.
func TestPowerDownSaves(t *testing.T) {
	cpu4 := Quantity{"cpu", Units(4)}
	jobs := func() []*Job {
		return []*Job{job("j1", 0, 10, NoWalltime, 1, cpu4), job("j2", 1000, 10, NoWalltime, 1, cpu4)}
	}
	always := runPower(t, sleepyNodes(t, 1), nil, jobs()...)
	// 100 W × 1010 s idle + 100 W × 20 s busy above idle = 103000 J.
	if always.energyJ != 103000 {
		t.Errorf("always on: %g J, want 103000", always.energyJ)
	}
	down := runPower(t, sleepyNodes(t, 1), &PowerDown{After: 60 * Second}, jobs()...)
	// 200 W × 10 s + 100 W × 60 s idle + 50 W × 2 s + 10 W × 928 s asleep
	// (72–1000) + 80 W × 5 s waking + 200 W × 10 s
	// = 2000 + 6000 + 100 + 9280 + 400 + 2000 = 19780 J.
	if down.energyJ != 19780 {
		t.Errorf("power-down: %g J, want 19780", down.energyJ)
	}
	if got := strings.Join(down.lines, "|"); !strings.Contains(got, "start j2 @1000 runs @1005") {
		t.Errorf("j2 not delayed by the switch-on time: %s", got)
	}
}

// TestPowerDownFailure: a node fails while waking for a job; the job goes
// back to the queue having run nothing, and starts on the other node,
// which it must wake too. The checker follows it all.
func TestPowerDownFailure(t *testing.T) {
	c := sleepyNodes(t, 2)
	l := &powerLog{}
	cfg := Config{PowerDown: &PowerDown{After: 0}, NodeEvents: []NodeEvent{{At: 12 * Second, Node: "a", Kind: NodeFail}}}
	runChecked(t, c, firstFitFCFS{}, cfg, l, job("j", 10, 3, NoWalltime, 1, Quantity{"cpu", Units(4)}))
	got := strings.Join(l.lines, "|")
	// Both nodes switch off at 10 (idle for 0 s at the first event), are
	// asleep at 12; j lands on a (switching off until 12, on at 17); a
	// fails at 12: j moves to b, asleep since 12, on at 17.
	for _, want := range []string{"start j @10 runs @17", "start j @12 runs @17", "completed j @20"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %s", want, got)
		}
	}
}

func TestPowerModelValidate(t *testing.T) {
	bad := []PowerModel{
		{IdleW: 10, MaxW: 5},
		{OffW: -1},
		{SwitchOn: PowerSwitch{W: 5}},
		{SwitchOff: PowerSwitch{Time: -1}},
	}
	for _, pm := range bad {
		if _, err := NewCluster([]NodeSpec{{Name: "a", Capacity: []Quantity{{"cpu", 1}}, Power: pm}}); err == nil {
			t.Errorf("%+v accepted", pm)
		}
	}
}
