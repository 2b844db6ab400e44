package sim

import (
	"strings"
	"testing"
)

// A job with independent tasks runs as one job per task: node a has 2
// cpu; web (3 tasks of 1 cpu, 10 s) at 0 starts web#0 and web#1 at once
// and web#2 when web#0 ends at 10 (it runs to 20). A gang job of the same
// shape waits for room for all three: it never fits, and is rejected.
func TestIndependentTasksStartAsEachFits(t *testing.T) {
	c, err := NewCluster([]NodeSpec{{Name: "a", Capacity: []Quantity{{"cpu", Units(2)}}}})
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	jobs := func() []*Job {
		web := job("web", 0, 10, NoWalltime, 3, Quantity{"cpu", Units(1)})
		web.IndependentTasks = true
		gang := job("gang", 30, 10, NoWalltime, 3, Quantity{"cpu", Units(1)})
		gang.Gang = true
		return []*Job{web, gang}
	}
	got := runTwice(t, c, jobs)
	want := strings.Join([]string{
		"start web#0 @0", "start web#1 @0", "completed web#0 @10", "completed web#1 @10", "start web#2 @10",
		"completed web#2 @20", "reject gang: needs 3 tasks but the empty cluster holds only 2", "finished @30",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, task := range splitTasks(jobs()[0]) {
		groups = append(groups, task.ID+" in "+task.CotaskGroup)
	}
	if g := strings.Join(groups, ", "); g != "web#0 in web, web#1 in web, web#2 in web" {
		t.Errorf("co-task groups: %s", g)
	}
}
