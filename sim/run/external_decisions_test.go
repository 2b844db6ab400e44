package run

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/external/refsched"
)

// jobStates is each job's state and reason.
func jobStates(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, j := range readJobs(t, dir) {
		out[j["job_id"]] = j["state"] + " " + j["reason"]
	}
	return out
}

// TestExternalDecisions: CALL_ME_LATER, QUERY, KILL_JOB and REJECT_JOB
// from the scheduler, and what schedsim answers, on test_delays.json (a
// job every 3 s, 10 s each, on 4 hosts): the test scheduler's replies are
// extended at chosen messages.
func TestExternalDecisions(t *testing.T) {
	c := Default()
	c.Trace, c.Platform, c.Format = batsimData+"test_delays.json", batsimData+"small_platform.xml", "csv"
	add := func(reply []byte, events string) []byte {
		if bytes.HasSuffix(reply, []byte("[]}")) {
			return append(bytes.TrimSuffix(reply, []byte("]}")), []byte(events+"]}")...)
		}
		return append(bytes.TrimSuffix(reply, []byte("]}")), []byte(","+events+"]}")...)
	}
	var done <-chan error
	c.Scheduler, done = serveRef(t, refsched.Config{Algorithm: "easy"}, func(n int, reply []byte) []byte {
		switch n {
		case 0: // t=0: w0!0 starts; call me at 4.5, how much energy so far?
			return add(reply, `{"timestamp":0,"type":"CALL_ME_LATER","data":{"timestamp":4.5}},{"timestamp":0,"type":"QUERY","data":{"requests":{"consumed_energy":{}}}}`)
		case 4: // t=6 (after t=0's ANSWER, t=3 and 4.5's call): kill w0!0, running since 0
			return add(reply, `{"timestamp":6,"type":"KILL_JOB","data":{"job_ids":["w0!0"]}}`)
		case 6: // t=9: w0!3 is submitted, and rejected instead of started
			return bytes.ReplaceAll(bytes.ReplaceAll(reply, []byte(`"EXECUTE_JOB"`), []byte(`"REJECT_JOB"`)), []byte(`,"alloc":"0"`), nil)
		}
		return reply
	})
	var transcript bytes.Buffer
	out := filepath.Join(t.TempDir(), "run")
	if err := replayInto(t, c, out, Options{SchedulerTranscript: &transcript}); err != nil {
		t.Fatalf("%v\n%s", err, transcript.String())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(transcript.String(), "\n")
	for _, want := range []struct {
		line int
		text string
	}{
		{3, `> {"now":0,"events":[{"timestamp":0,"type":"ANSWER","data":{"consumed_energy":0}}]}`},
		{7, `> {"now":4.5,"events":[{"timestamp":4.5,"type":"REQUESTED_CALL","data":{}}]}`},
		{11, `> {"now":6,"events":[{"timestamp":6,"type":"JOB_COMPLETED","data":{"job_id":"w0!0","job_state":"COMPLETED_KILLED","return_code":-1,"alloc":"0"}},{"timestamp":6,"type":"JOB_KILLED","data":{"job_ids":["w0!0"],"job_progress":{"w0!0":{"profile":"delay10","progress":0.6}}}}]}`},
	} {
		if len(lines) < want.line || lines[want.line-1] != want.text {
			t.Errorf("transcript line %d:\n got %s\nwant %s", want.line, lines[min(want.line, len(lines))-1], want.text)
		}
	}
	states := jobStates(t, out)
	for id, want := range map[string]string{"0": "killed killed by the external scheduler", "3": "rejected rejected by the external scheduler", "9": "completed "} {
		if states[id] != want {
			t.Errorf("job %s: %q, want %q", id, states[id], want)
		}
	}
}

// TestExternalNodeEvents: a host that fails stops its job, which the
// scheduler sees end as COMPLETED_FAILED and come back under a new id,
// with the machine's unavailability and return notified.
func TestExternalNodeEvents(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events.csv")
	os.WriteFile(events, []byte("time_s,node,event\n5,Jupiter,fail\n20,Jupiter,recover\n"), 0o644)
	c := Default()
	c.Trace, c.Platform, c.Format, c.NodeEvents = batsimData+"test_delays.json", batsimData+"small_platform.xml", "csv", events
	var transcript bytes.Buffer
	var done <-chan error
	c.Scheduler, done = serveRef(t, refsched.Config{Algorithm: "fcfs"}, nil)
	if err := replayInto(t, c, filepath.Join(dir, "run"), Options{SchedulerTranscript: &transcript}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"timestamp":5,"type":"JOB_COMPLETED","data":{"job_id":"w0!0","job_state":"COMPLETED_FAILED","return_code":-1,"alloc":"0"}}`,
		`{"timestamp":5,"type":"NOTIFY","data":{"type":"event_machine_unavailable","resources":"0"}}`,
		`{"timestamp":5,"type":"JOB_SUBMITTED","data":{"job_id":"w0!0#1","job":{"id":"w0!0#1","subtime":0,"walltime":100,"res":1,"profile":"delay10"},"profile":{"type":"delay","delay":10}}}`,
		`{"timestamp":20,"type":"NOTIFY","data":{"type":"event_machine_available","resources":"0"}}`,
		`{"timestamp":20,"type":"NOTIFY","data":{"type":"no_more_external_event_to_occur"}}`,
	} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("the transcript lacks %s", want)
		}
	}
	states := jobStates(t, filepath.Join(dir, "run"))
	for id, st := range states {
		if st != "completed " {
			t.Errorf("job %s: %s", id, st)
		}
	}
}
