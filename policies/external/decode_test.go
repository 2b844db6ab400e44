package external

import (
	"encoding/json"
	"reflect"
	"testing"
)

// quickReply reads what encoding/json reads, or declines.
func TestQuickReply(t *testing.T) {
	for _, tc := range []struct {
		reply string
		quick bool
	}{
		{`{"now":3,"events":[]}`, true},
		{` { "events" : [ { "data" : { "alloc" : "0-3 7", "job_id" : "w0!1" }, "type" : "EXECUTE_JOB", "timestamp" : 3.5 } ] , "now" : 4e0 } `, true},
		{`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0"}},{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!2","alloc":"1-2"}}]}`, true},
		{`{"now":3,"events":[{"timestamp":3,"type":"CALL_ME_LATER","data":{"timestamp":9}}]}`, false},
		{`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!\u0031","alloc":"0"}}]}`, false},
		{`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0","mapping":{}}}]}`, false},
		{`{"NOW":3,"events":[]}`, false},
		{`{"now":03,"events":[]}`, false},
		{`{"now":3,"events":[]} x`, false},
		{`{"now":3}`, false},
		{`{"now":3,"events":[`, false},
	} {
		now, events, ok := quickReply([]byte(tc.reply))
		if ok != tc.quick {
			t.Errorf("%s: quick %v, want %v", tc.reply, ok, tc.quick)
			continue
		}
		if !ok {
			continue
		}
		var m struct {
			Now    float64
			Events []struct {
				Timestamp float64
				Type      string
				Data      struct {
					JobID string `json:"job_id"`
					Alloc string `json:"alloc"`
				}
			}
		}
		if err := json.Unmarshal([]byte(tc.reply), &m); err != nil {
			t.Fatal(err)
		}
		if now != m.Now || len(events) != len(m.Events) {
			t.Errorf("%s: now %v, %d events; encoding/json %v, %d", tc.reply, now, len(events), m.Now, len(m.Events))
			continue
		}
		for i, e := range m.Events {
			got := []any{*events[i].Timestamp, *events[i].Type, events[i].exec.jobID, events[i].exec.alloc}
			want := []any{e.Timestamp, e.Type, e.Data.JobID, e.Data.Alloc}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: event %d %v, encoding/json %v", tc.reply, i, got, want)
			}
		}
	}
}
