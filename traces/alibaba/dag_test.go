package alibaba

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// dagRows is job x with every kind of bad DAG: it keeps M1 and M2_1 only.
var dagRows = []string{
	"M1,1,x,1,Terminated,10,20,100,1",     // line 1: good
	"M2_1,1,x,1,Terminated,20,30,100,1",   // 2: good, after M1
	"M,1,x,1,Terminated,10,20,100,1",      // 3: no task number
	"R3_,1,x,1,Terminated,10,20,100,1",    // 4: empty dependency
	"J4_x,1,x,1,Terminated,10,20,100,1",   // 5: dependency not a number
	"R2_1,1,x,1,Terminated,10,20,100,1",   // 6: task number 2 again
	"M5_99,1,x,1,Terminated,10,20,100,1",  // 7: no task 99 in the job
	"M6_5,1,x,1,Terminated,10,20,100,1",   // 8: waits for M5_99, dropped
	"M7_8,1,x,1,Terminated,10,20,100,1",   // 9: cycle with M8_7
	"M8_7,1,x,1,Terminated,10,20,100,1",   // 10: cycle with M7_8
	"M9_7,1,x,1,Terminated,10,20,100,1",   // 11: waits on the cycle
	"M10_4,1,x,1,Terminated,10,20,100,1",  // 12: task 4 (J4_x) has no number
	"M11_11,1,x,1,Terminated,10,20,100,1", // 13: waits for itself
}

func TestDAGMalformedLenient(t *testing.T) {
	r := fromStrings(strings.Join(dagRows, "\n")+"\n", "", Options{})
	jobs := tracetest.All(t, r)
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []string{"x/M1", "x/M2_1"}) || len(jobs[1].DependsOn) != 1 || jobs[1].DependsOn[0].ID != "x/M1" {
		t.Fatalf("kept:\n%s", formatJobs(jobs))
	}
	// 11 dropped: 3 malformed names (M, R3_, J4_x), 1 duplicate (R2_1), 2
	// missing dependencies (M5_99, M10_4), 1 waiting on a dropped task
	// (M6_5), 4 in or after a cycle (M7_8, M8_7, M9_7, M11_11).
	s := r.Skips()
	count := func(target error) int {
		n := 0
		for reason, k := range s.ByReason {
			if strings.HasPrefix(reason, target.Error()) {
				n += k
			}
		}
		return n
	}
	for _, c := range []struct {
		err  error
		want int
	}{
		{errNoTaskNumber, 1}, {errEmptyDep, 1}, {errBadNumber, 1}, {errDupNumber, 1},
		{errDepMissing, 2}, {errDepSkipped, 1}, {errCycle, 4},
	} {
		if got := count(c.err); got != c.want {
			t.Errorf("%v: %d, want %d", c.err, got, c.want)
		}
	}
	if s.Total != 11 {
		t.Errorf("skipped %d, want 11: %s", s.Total, formatSkips(s))
	}
}

// TestDAGMalformedStrict: each bad DAG alone (with the good M1 and M2_1)
// stops a strict reader at its line, field task_name, with its reason.
func TestDAGMalformedStrict(t *testing.T) {
	cases := []struct {
		rows    []int // indices into dagRows besides lines 1 and 2
		line    int
		reason  error
		message string
	}{
		{[]int{2}, 3, errNoTaskNumber, `"M"`},
		{[]int{3}, 3, errEmptyDep, `"R3_"`},
		{[]int{4}, 3, errBadNumber, `"x" in "J4_x"`},
		{[]int{5}, 3, errDupNumber, "job x has task 2 as M2_1 (line 2) and R2_1"},
		{[]int{6}, 3, errDepMissing, "M5_99 waits for task 99"},
		{[]int{8, 9}, 3, errCycle, "job x: M7_8 → M8_7 → M7_8"},
		{[]int{10, 8, 9}, 3, errCycle, "job x: M9_7 → M7_8 → M8_7 → M7_8"}, // waits on the cycle
		{[]int{12}, 3, errCycle, "job x: M11_11 → M11_11"},
	}
	for _, c := range cases {
		rows := []string{dagRows[0], dagRows[1]}
		for _, i := range c.rows {
			rows = append(rows, dagRows[i])
		}
		_, err := tracetest.Drain(fromStrings(strings.Join(rows, "\n")+"\n", "", Options{Options: traces.Options{Strict: true}}))
		pe := tracetest.ParseErr(t, err)
		if pe.Line != c.line || pe.Field != "task_name" || !errors.Is(err, c.reason) || !strings.Contains(err.Error(), c.message) {
			t.Errorf("rows %v: got %v, want line %d, %v, %q", c.rows, err, c.line, c.reason, c.message)
		}
	}
}

// A task whose first dependency is there and whose second is missing is
// dropped, and stays dropped when its first dependency is yielded (found
// by fuzzing: it was yielded, waiting on itself).
func TestDAGDroppedAfterCountingADependency(t *testing.T) {
	rows := "M1,1,y,1,Terminated,10,20,100,1\nJ3_1_2,1,y,1,Terminated,10,20,100,1\n"
	jobs := tracetest.All(t, fromStrings(rows, "", Options{}))
	if len(jobs) != 1 || jobs[0].ID != "y/M1" {
		t.Fatalf("kept:\n%s", formatJobs(jobs))
	}
}
