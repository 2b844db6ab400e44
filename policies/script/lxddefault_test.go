package script

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/placement"
)

// pin_or_default.star under a first-fit pipeline: None without set_target
// is LXD's default (fewest instances), and explanations mark set_target's
// choices with the "script" scorer (1) and LXD's default with 0.
// m1 holds 2 tasks, m2 1, m3 0.
//   - web: fewest instances is m3 (first fit would take m1); m3 holds 1.
//   - pin-a: set_target on the last candidate, m3; m3 holds 2.
//   - web2: m1 holds 2, m2 1, m3 2 (web, pin-a): m2.
func TestLXDDefaultAndExplain(t *testing.T) {
	c := cluster(t, node("m1", 8, 64), node("m2", 8, 64), node("m3", 8, 64))
	var got [2]string
	for run := range got {
		l := placement.NewLedger(c)
		fill(t, l, 0, 1, 1)
		fill(t, l, 0, 1, 1)
		fill(t, l, 1, 1, 1)
		p := pipeline(t, c, "first-fit", example(t, "pin_or_default.star", Config{}))
		var names []string
		for _, s := range p.Scorers {
			names = append(names, s.Name())
		}
		var b strings.Builder
		p.Explain = func(tk *placement.Task, n int, total float64, scores []float64) {
			fmt.Fprintf(&b, "%s -> %s %v %v; ", tk.Job.ID, c.Nodes[n].Name, names, scores)
		}
		for _, id := range []string{"web", "pin-a", "web2"} {
			if _, reason := place(p, l, task(t, c, job(id, 1, 1), "new")); reason != "" {
				t.Fatalf("%s: %s", id, reason)
			}
		}
		got[run] = b.String()
	}
	if got[0] != got[1] {
		t.Fatalf("two runs differ:\n%s\n%s", got[0], got[1])
	}
	want := "web -> m3 [script] [0]; pin-a -> m3 [script] [1]; web2 -> m2 [script] [0]; "
	if got[0] != want {
		t.Errorf("got  %s\nwant %s", got[0], want)
	}
}

// A pipeline that chooses by scores of its own keeps its choice when the
// script leaves the target unset: binpack-like most-allocated takes the
// fullest member, m1, where LXD's default would take m3.
func TestOwnChoiceKeptWithoutTarget(t *testing.T) {
	c := cluster(t, node("m1", 8, 64), node("m2", 8, 64), node("m3", 8, 64))
	l := placement.NewLedger(c)
	fill(t, l, 0, 2, 2)
	p := pipeline(t, c, "most-allocated", example(t, "pin_or_default.star", Config{}))
	got, reason := place(p, l, task(t, c, job("web", 1, 1), "new"))
	wantNodes(t, got, reason, "m1")
}
