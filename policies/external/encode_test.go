package external

import (
	"encoding/json"
	"testing"
)

// The hand-written encoders write what encoding/json writes.
func TestAppendMessageMatchesJSON(t *testing.T) {
	w := 3600.5
	evs := []event{
		{Timestamp: 0, Type: "SIMULATION_BEGINS", Data: simulationBegins{NbResources: 2, Workloads: map[string]string{"w0": "a<b>&\"c\".json"}}},
		{Timestamp: 1e-6, Type: "JOB_SUBMITTED", Data: jobSubmitted{JobID: "w0!1", Job: jobDesc{ID: "w0!1", Subtime: 12.25, Walltime: &w, Res: 4, Profile: "delay99.5"}, Profile: delayProfile{Type: "delay", Delay: 99.5}}},
		{Timestamp: 12345678.000001, Type: "JOB_SUBMITTED", Data: jobSubmitted{JobID: "w0!é\"2", Job: jobDesc{ID: "w0!é\"2", Res: 1, Profile: "delay0"}, Profile: delayProfile{Type: "delay"}}},
		{Timestamp: 2e21, Type: "JOB_COMPLETED", Data: jobCompleted{JobID: "w0!1", JobState: stateWalltime, ReturnCode: -1, Alloc: "0-3 7"}},
		{Timestamp: 5, Type: "NOTIFY", Data: notify{Type: "no_more_static_job_to_submit"}},
		{Timestamp: 5, Type: "NOTIFY", Data: notify{Type: "event_machine_unavailable", Resources: "1 3-4"}},
		{Timestamp: 5, Type: "REQUESTED_CALL", Data: empty{}},
		{Timestamp: 5, Type: "ANSWER", Data: map[string]float64{"consumed_energy": 1.5e7}},
	}
	got, err := appendMessage(nil, 12345678.000001, evs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(message{Now: 12345678.000001, Events: evs})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
