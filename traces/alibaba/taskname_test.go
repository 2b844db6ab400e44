package alibaba

import (
	"errors"
	"slices"
	"testing"
)

func TestParseTaskName(t *testing.T) {
	cases := []struct {
		name string
		want TaskName
		err  error
	}{
		// trace_2018.md's example: task 1 alone, 2 and 3 after 1, 4 after
		// 2, 5 after 3 and 4.
		{"M1", TaskName{DAG: true, Num: 1}, nil},
		{"M2_1", TaskName{DAG: true, Num: 2, Deps: []int{1}}, nil},
		{"R4_2", TaskName{DAG: true, Num: 4, Deps: []int{2}}, nil},
		{"M5_3_4", TaskName{DAG: true, Num: 5, Deps: []int{3, 4}}, nil},
		{"J3_1_2", TaskName{DAG: true, Num: 3, Deps: []int{1, 2}}, nil},
		// The letter carries no meaning; repeats collapse; leading zeros
		// are the same number.
		{"x12_07_7", TaskName{DAG: true, Num: 12, Deps: []int{7}}, nil},
		// Names that are not DAG names: independent tasks.
		{"task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==", TaskName{}, nil},
		{"MergeTask", TaskName{}, nil},
		{"7", TaskName{}, nil},
		// Malformed DAG names.
		{"M", TaskName{}, errNoTaskNumber},
		{"M_1", TaskName{}, errNoTaskNumber},
		{"R2_", TaskName{}, errEmptyDep},
		{"R2__1", TaskName{}, errEmptyDep},
		{"J3_x", TaskName{}, errBadNumber},
		{"M1a", TaskName{}, errBadNumber},
		{"M99999999999", TaskName{}, errBadNumber}, // beyond maxTaskNumber
	}
	for _, c := range cases {
		got, err := ParseTaskName(c.name)
		if !errors.Is(err, c.err) {
			t.Errorf("%q: error %v, want %v", c.name, err, c.err)
			continue
		}
		if got.DAG != c.want.DAG || got.Num != c.want.Num || !slices.Equal(got.Deps, c.want.Deps) {
			t.Errorf("%q: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
