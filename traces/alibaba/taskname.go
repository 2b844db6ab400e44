package alibaba

import (
	"errors"
	"fmt"
	"strings"
)

// TaskName is what a batch_task name says about the job's DAG.
type TaskName struct {
	// DAG is true for names shaped <letter><number>[_<number>…] (M1, R2_1,
	// J3_1_2). Other names (task_Nzg3…, MergeTask) are independent tasks:
	// no number, no dependencies.
	DAG bool
	// Num is the task's own number, unique within its job.
	Num int
	// Deps are the numbers of the tasks it waits for, in name order,
	// without repeats.
	Deps []int
}

// Errors of a malformed DAG name; ParseTaskName wraps them with details.
var (
	errNoTaskNumber = errors.New("DAG task name without its task number")
	errEmptyDep     = errors.New("DAG task name with an empty dependency")
	errBadNumber    = errors.New("DAG task name with a part that is not a number")
)

// maxTaskNumber bounds the numbers of a name so they fit an int anywhere.
const maxTaskNumber = 1_000_000_000

// ParseTaskName reads a batch_task task_name. A name is a DAG name when
// it is one ASCII letter, alone or followed by a digit or '_': the letter
// (M, R, J, …) carries no meaning, the first number is the task's own and
// each further '_'-separated number names a task of the same job it waits
// for. A DAG name that does not continue as <digits>(_<digits>)* is
// malformed: "M", "M_1", "R2_", "J3_x". Any other name is an independent
// task.
func ParseTaskName(s string) (TaskName, error) {
	if len(s) == 0 || !isLetter(s[0]) || (len(s) > 1 && !isDigit(s[1]) && s[1] != '_') {
		return TaskName{}, nil
	}
	parts := strings.Split(s[1:], "_")
	if parts[0] == "" {
		return TaskName{}, withDetails(errNoTaskNumber, fmt.Sprintf("%q", s))
	}
	n := TaskName{DAG: true}
	for i, p := range parts {
		if p == "" {
			return TaskName{}, withDetails(errEmptyDep, fmt.Sprintf("%q", s))
		}
		v, ok := number(p)
		if !ok {
			return TaskName{}, withDetails(errBadNumber, fmt.Sprintf("%q in %q", p, s))
		}
		if i == 0 {
			n.Num = v
			continue
		}
		dup := false
		for _, d := range n.Deps {
			dup = dup || d == v
		}
		if !dup {
			n.Deps = append(n.Deps, v)
		}
	}
	return n, nil
}

// number reads decimal digits below maxTaskNumber.
func number(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
		if v >= maxTaskNumber {
			return 0, false
		}
	}
	return v, true
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }
