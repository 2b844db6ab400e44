package alibaba

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// goodTasks are two valid batch_task rows; a bad row goes in as line 2.
const (
	goodTask1 = "M1,2,j_1,1,Terminated,100,160,100,0.39"
	goodTask2 = "M1,1,j_2,1,Terminated,200,260,100,0.39"
)

// TestStrictTaskFields: one bad batch_task field at a time; strict mode
// names the file, line 2 and the field.
func TestStrictTaskFields(t *testing.T) {
	cases := []struct{ row, field string }{
		{",1,j_9,1,Terminated,100,160,100,0.39", "task_name"},
		{"M,1,j_9,1,Terminated,100,160,100,0.39", "task_name"},
		{"R2_,1,j_9,1,Terminated,100,160,100,0.39", "task_name"},
		{"J3_x,1,j_9,1,Terminated,100,160,100,0.39", "task_name"},
		{"M1,0,j_9,1,Terminated,100,160,100,0.39", "instance_num"},
		{"M1,two,j_9,1,Terminated,100,160,100,0.39", "instance_num"},
		{"M1,1,,1,Terminated,100,160,100,0.39", "job_name"},
		{"M1,1,j_9,1,Terminated,,160,100,0.39", "start_time"},
		{"M1,1,j_9,1,Terminated,-5,160,100,0.39", "start_time"},
		{"M1,1,j_9,1,Terminated,0,160,100,0.39", "start_time"}, // outside the window
		{"M1,1,j_9,1,Terminated,100,x,100,0.39", "end_time"},
		{"M1,1,j_9,1,Running,100,0,100,0.39", "end_time"},
		{"M1,1,j_9,1,Terminated,160,100,100,0.39", "end_time"}, // before start
		{"M1,1,j_9,1,Terminated,100,160,,0.39", "plan_cpu"},
		{"M1,1,j_9,1,Terminated,100,160,-100,0.39", "plan_cpu"},
		{"M1,1,j_9,1,Terminated,100,160,100,", "plan_mem"},
		{"M1,1,j_9,1,Terminated,100,160,100,101", "plan_mem"},
		{"M1,1,j_9,1,Terminated,100,160,100", ""},      // 8 columns
		{`M1,1,j"9,1,Terminated,100,160,100,0.39`, ""}, // bare quote
	}
	for _, c := range cases {
		text := goodTask1 + "\n" + c.row + "\n" + goodTask2 + "\n"
		_, err := tracetest.Drain(fromStrings(text, "", Options{Options: traces.Options{Strict: true}}))
		pe := tracetest.ParseErr(t, err)
		if pe.File != "batch_task.csv" || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("%q: got %v, want batch_task.csv:2 field %q", c.row, err, c.field)
		}
		// Lenient: the row is skipped and counted, the good rows stay.
		r := fromStrings(text, "", Options{})
		jobs, err := tracetest.Drain(r)
		if err != nil || len(jobs) != 2 || r.Skips().Total != 1 {
			t.Errorf("%q lenient: %d jobs, %d skipped, %v", c.row, len(jobs), r.Skips().Total, err)
		}
	}
}

// TestStrictInstanceFields: the same for the batch_instance fields the
// reader uses, and for instances no batch_task job takes.
func TestStrictInstanceFields(t *testing.T) {
	good := "ins_1,M1,j_1,1,Terminated,100,150,m_1,1,1,50,60,0.2,0.3"
	cases := []struct{ row, field string }{
		{"ins_2,,j_1,1,Terminated,100,150,m_1,1,1,50,60,0.2,0.3", "task_name"},
		{"ins_2,M1,,1,Terminated,100,150,m_1,1,1,50,60,0.2,0.3", "job_name"},
		{"ins_2,M1,j_1,1,Terminated,0,150,m_1,1,1,50,60,0.2,0.3", "start_time"},
		{"ins_2,M1,j_1,1,Terminated,100,1.5.0,m_1,1,1,50,60,0.2,0.3", "end_time"},
		{"ins_2,M1,j_1,1,Terminated,150,100,m_1,1,1,50,60,0.2,0.3", "end_time"},
		{"ins_2,M7,j_1,1,Terminated,100,150,m_1,1,1,50,60,0.2,0.3", "task_name"}, // j_1 has no M7
		{"ins_2,M1,j_8,1,Terminated,100,150,m_1,1,1,50,60,0.2,0.3", "job_name"},  // no job j_8
		{"ins_2,M1,j_1,1,Terminated,100,150", ""},
	}
	tasks := goodTask1 + "\n" + goodTask2 + "\n"
	for _, c := range cases {
		inst := good + "\n" + c.row + "\n"
		_, err := tracetest.Drain(fromStrings(tasks, inst, Options{Options: traces.Options{Strict: true}}))
		pe := tracetest.ParseErr(t, err)
		if pe.File != "batch_instance.csv" || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("%q: got %v, want batch_instance.csv:2 field %q", c.row, err, c.field)
		}
		r := fromStrings(tasks, inst, Options{})
		jobs, err := tracetest.Drain(r)
		if err != nil || len(jobs) != 2 || r.Skips().Total != 1 {
			t.Errorf("%q lenient: %d jobs, %d skipped, %v", c.row, len(jobs), r.Skips().Total, err)
		}
		// The good instance still sets j_1/M1's runtime: 150 − 100 = 50 s.
		if len(jobs) > 0 && jobs[0].Runtime.Seconds() != 50 {
			t.Errorf("%q lenient: j_1/M1 runtime %v, want 50 s", c.row, jobs[0].Runtime)
		}
	}
}

// TestStrictMachineFields: the same for machine_meta.
func TestStrictMachineFields(t *testing.T) {
	good := "m_1,0,1,1,96,100,USING"
	cases := []struct{ row, field string }{
		{",0,1,1,96,100,USING", "machine_id"},
		{"m_2,,1,1,96,100,USING", "time_stamp"},
		{"m_2,-1,1,1,96,100,USING", "time_stamp"},
		{"m_2,0,1,1,0,100,USING", "cpu_num"},
		{"m_2,0,1,1,9.5,100,USING", "cpu_num"},
		{"m_2,0,1,1,96,101,USING", "mem_size"}, // the trace's "invalid" marker
		{"m_2,0,1,1,96,-1,USING", "mem_size"},
		{"m_2,0,1,1,96,,USING", "mem_size"},
		{"m_2,0,1,1,96,100,", "status"},
		{"m_2,0,1,1,96,100", ""},
	}
	for _, c := range cases {
		text := good + "\n" + c.row + "\n"
		_, err := ParseMachines(strings.NewReader(text), "machine_meta.csv", traces.Options{Strict: true})
		pe := tracetest.ParseErr(t, err)
		if pe.File != "machine_meta.csv" || pe.Line != 2 || pe.Field != c.field {
			t.Errorf("%q: got %v, want machine_meta.csv:2 field %q", c.row, err, c.field)
		}
		m, err := ParseMachines(strings.NewReader(text), "machine_meta.csv", traces.Options{})
		if err != nil || len(m.Nodes) != 1 || m.Skips.Total != 1 {
			t.Errorf("%q lenient: %+v, %v", c.row, m, err)
		}
	}
	if _, err := ParseMachines(strings.NewReader(",0,1,1,96,100,USING\n"), "machine_meta.csv", traces.Options{}); !errors.Is(err, errNoMachine) {
		t.Errorf("no good machine: %v", err)
	}
}

// TestLenientCounts: a file mixing good and bad rows, read leniently,
// keeps the good ones and counts the bad ones by reason.
func TestLenientCounts(t *testing.T) {
	rows := []string{
		"M1,1,a,1,Terminated,10,20,100,1",     // good
		"M2_1,1,a,1,Terminated,20,30,100,1",   // good
		"M3,1,a,1,Terminated,0,30,100,1",      // start 0: outside the window
		"R4_3,1,a,1,Terminated,30,40,100,1",   // waits for M3, skipped
		"M1,0,b,1,Terminated,10,20,100,1",     // instance_num 0
		"M1,1,c,1,Terminated,10,20,100",       // 8 columns
		"task_x,1,c,1,Terminated,15,20,100,1", // good
		"M1,1,d,1,Running,10,0,100,1",         // end 0
		"M1,1,d2,1,Terminated,10,20,100,200",  // plan_mem 200
		"M1,1,e,1,Terminated,10,20,100,1",     // good
	}
	r := fromStrings(strings.Join(rows, "\n")+"\n", "", Options{})
	jobs := tracetest.All(t, r)
	// 4 good rows: a/M1, a/M2_1, c/task_x, e/M1; 6 bad ones.
	if len(jobs) != 4 {
		t.Errorf("%d jobs:\n%s", len(jobs), formatJobs(jobs))
	}
	s := r.Skips()
	want := map[string]int{
		errOutsideWindow.Error(): 2, // M3's start, d's end
		errDepSkipped.Error():    1,
		errNotCount.Error():      1,
		"want 9 columns":         1,
		errMemRange.Error():      1,
	}
	if s.Total != 6 || len(s.ByReason) != len(want) {
		t.Errorf("skips %s", formatSkips(s))
	}
	for reason, n := range want {
		if s.ByReason[reason] != n {
			t.Errorf("reason %q: %d, want %d (all: %s)", reason, s.ByReason[reason], n, formatSkips(s))
		}
	}
}
