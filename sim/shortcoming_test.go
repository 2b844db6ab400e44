package sim

import (
	"errors"
	"strings"
	"testing"
)

// queuedReasons is log plus, at the end, each job still queued and the
// engine's reason for it.
type queuedReasons struct{ log }

func (q *queuedReasons) Finished(now Time, c *Context) {
	for _, j := range c.Queue() {
		if j.Status == Queued {
			q.add("queued " + j.Job.ID + ": " + j.Reason)
		}
	}
	q.add("finished @" + now.String())
}

// runTwice plays jobs twice from scratch and fails unless both logs are
// byte for byte the same; it returns the log.
func runTwice(t *testing.T, c *Cluster, jobs func() []*Job) string {
	t.Helper()
	var out [2]string
	for i := range out {
		l := &queuedReasons{}
		runChecked(t, c, firstFitFCFS{}, Config{}, l, jobs()...)
		out[i] = strings.Join(l.lines, "\n")
	}
	if out[0] != out[1] {
		t.Fatalf("two runs differ:\n%s\n---\n%s", out[0], out[1])
	}
	return out[0]
}

// The example: node m {cpu 8, mud −5}.
//   - p {cpu 2, mud −5} at 0: −5 − (−5) = 0 ≥ 0, it starts on m; mud 0.
//   - q {cpu 1} at 1 lists no mud: the empty m (−5) could not hold it, but
//     with p running mud is 0, not below zero: it starts at once.
//   - r {cpu 1, mud −4} at 2: the empty m could not hold it (−5 + 4 = −1 <
//     0), beside p it fits (0 + 4 = 4 ≥ 0): it starts at once; mud 4.
//   - r ends at 12 (mud 0), q at 51, p at 100: mud back at −5.
//   - late {cpu 1} at 150: m is short by 5 (0 − (−5)) and nothing runs to
//     cancel it. Nothing else will happen: the run ends at 150 with late
//     still queued and its reason naming mud and m.
//   - never {cpu 9}: no state of m has 9 cpu: rejected at submission.
func TestShortcomingFitsBesideItsCanceller(t *testing.T) {
	c, err := NewCluster([]NodeSpec{{Name: "m", Capacity: []Quantity{{"cpu", Units(8)}, {"mud", Units(-5)}}}})
	if err != nil {
		t.Fatal(err)
	}
	jobs := func() []*Job {
		return []*Job{
			job("p", 0, 100, NoWalltime, 1, Quantity{"cpu", Units(2)}, Quantity{"mud", Units(-5)}),
			job("q", 1, 50, NoWalltime, 1, Quantity{"cpu", Units(1)}),
			job("r", 2, 10, NoWalltime, 1, Quantity{"cpu", Units(1)}, Quantity{"mud", Units(-4)}),
			job("late", 150, 10, NoWalltime, 1, Quantity{"cpu", Units(1)}),
			job("never", 150, 10, NoWalltime, 1, Quantity{"cpu", Units(9)}),
		}
	}
	got := runTwice(t, c, jobs)
	want := strings.Join([]string{
		"start p @0", "start q @1", "start r @2", "completed r @12", "completed q @51", "completed p @100",
		"reject never: no node can hold one task",
		"queued late: waits for mud: node m short by 5, nothing running cancels it",
		"finished @150",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A shortcoming partly cancelled at the horizon (50 s): m {cpu 8, mud −5}.
// p {mud −5} at 0 brings mud to 0; r {mud −4} at 1 fits beside it (4);
// p ends at 10 and mud is 4 − 5 = −1 while r runs on past the horizon.
// x {cpu 1} at 20 waits: short by 1, with r cancelling 4 of the 5. Wards
// are not shortcomings: w {gpu 1}, whose only node z has a ward, is
// rejected at submission.
func TestShortcomingReasonAtHorizon(t *testing.T) {
	c, err := NewCluster([]NodeSpec{
		{Name: "m", Capacity: []Quantity{{"cpu", Units(8)}, {"mud", Units(-5)}}},
		{Name: "z", Capacity: []Quantity{{"gpu", Units(1)}, {"spiders", Ward}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	jobs := func() []*Job {
		return []*Job{
			job("p", 0, 10, NoWalltime, 1, Quantity{"cpu", Units(1)}, Quantity{"mud", Units(-5)}),
			job("r", 1, 1000, NoWalltime, 1, Quantity{"cpu", Units(1)}, Quantity{"mud", Units(-4)}),
			job("w", 1, 10, NoWalltime, 1, Quantity{"gpu", Units(1)}),
			job("x", 20, 10, NoWalltime, 1, Quantity{"cpu", Units(1)}),
		}
	}
	var lines []string
	for range 2 {
		l := &queuedReasons{}
		if err := NewEngine(c, &SliceSource{Jobs: jobs()}, firstFitFCFS{}, Config{Until: 50 * Second}, l).Run(); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Join(l.lines, "\n"))
	}
	if lines[0] != lines[1] {
		t.Fatalf("two runs differ:\n%s\n---\n%s", lines[0], lines[1])
	}
	want := "start p @0\nreject w: no node can hold one task\nstart r @1\ncompleted p @10\n" +
		"queued x: waits for mud: node m short by 1, running jobs cancel 4 of it\nfinished @50"
	if lines[0] != want {
		t.Errorf("got\n%s\nwant\n%s", lines[0], want)
	}
}

// A negative request of a resource that no node is short of would add to
// the free amounts (six jobs of 16 cpu ran at once on 64 beside a job of
// cpu −64, utilization −85 %): the run stops at that job's submission
// with a *NegativeRequestError, bad input, before anything overcommits.
func TestNegativeRequestWithoutShortcoming(t *testing.T) {
	c, err := NewCluster([]NodeSpec{{Name: "n", Capacity: []Quantity{{"cpu", Units(64)}}}})
	if err != nil {
		t.Fatal(err)
	}
	first := job("a", 0, 100, NoWalltime, 1, Quantity{"cpu", Units(16)})
	neg := job("neg", 5, 100, NoWalltime, 1, Quantity{"cpu", Units(-64)})
	neg.Line = 7
	l := &queuedReasons{}
	err = NewEngine(c, &SliceSource{Jobs: []*Job{first, neg}}, firstFitFCFS{}, Config{}, l).Run()
	var ne *NegativeRequestError
	if !errors.As(err, &ne) || ne.Job != neg || ne.Resource != "cpu" || ne.Amount != Units(-64) {
		t.Fatalf("got %v, want a NegativeRequestError for job neg", err)
	}
	want := "job neg requests cpu: -64, a negative amount, but no node has a shortcoming or ward of cpu (a negative request only cancels one)"
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if got := strings.Join(l.lines, "\n"); got != "start a @0" {
		t.Errorf("before the error: %q, want only a's start", got)
	}
}
