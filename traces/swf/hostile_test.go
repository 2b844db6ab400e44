package swf

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces/tracetest"
)

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// record is one 18-field SWF line: job id submitted at submit, 1 processor.
func record(id, submit int) string {
	return fmt.Sprintf("%d %d 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n", id, submit)
}

// A header that states a billion nodes is refused under the nodes model,
// with its line, before any node is built (160 GB otherwise); under the
// pool model it only scales one node's power.
func TestHugeHeaderIsRefused(t *testing.T) {
	log := "; Version: 2.2\n; Computer: hostile\n; MaxNodes: 1000000000\n; MaxProcs: 1000000000\n" + record(1, 0)
	before := totalAlloc()
	_, err := OpenBytes("big.swf", []byte(log), Options{Model: Nodes})
	if grown := totalAlloc() - before; grown > 200<<20 {
		t.Errorf("allocated %d MB", grown>>20)
	}
	want := "big.swf:3: field MaxNodes: 1000000000 nodes: the nodes model builds at most 1000000"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("nodes model: %v, want %q", err, want)
	}
	r, err := OpenBytes("big.swf", []byte(log), Options{Model: Pool})
	if err != nil {
		t.Fatalf("pool model: %v", err)
	}
	nodes, err := r.Header().Cluster(ClusterOptions{Model: Pool})
	if err != nil || len(nodes) != 1 {
		t.Errorf("pool cluster: %d nodes, %v", len(nodes), err)
	}
	if _, err := r.Header().Cluster(ClusterOptions{Model: Nodes}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Cluster under the nodes model: %v", err)
	}
}

// Counts beyond what a processor count may be, or beyond an int, are
// errors naming the header line, whatever the model.
func TestHeaderCountsAreCapped(t *testing.T) {
	for _, tc := range []struct{ header, want string }{
		{"; MaxProcs: 2199023255553\n", "h.swf:1: field MaxProcs: 2199023255553 is more than the 1099511627776"},
		{"; Note: x\n; MaxNodes: 99999999999999999999\n", "h.swf:2: field MaxNodes: 99999999999999999999 is more than"},
		{"; MaxProcs: 2000000\n", "h.swf:1: field MaxProcs: 2000000 nodes: the nodes model builds at most 1000000"},
	} {
		_, err := OpenBytes("h.swf", []byte(tc.header+record(1, 0)), Options{Model: Nodes})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.header, err, tc.want)
		}
	}
}

// The reordering holds at most MaxHeldBack records: a log more out of
// order than that is an error that says to sort it, whether it has many
// records out of order or one that makes all the others wait.
func TestReorderingIsBounded(t *testing.T) {
	var reversed, lastEarly strings.Builder
	reversed.WriteString("; MaxProcs: 4\n")
	lastEarly.WriteString("; MaxProcs: 4\n")
	for i := 0; i < 20; i++ {
		reversed.WriteString(record(i+1, 100-i))
		lastEarly.WriteString(record(i+1, 10+i))
	}
	lastEarly.WriteString(record(21, 0))
	_, err := OpenBytes("rev.swf", []byte(reversed.String()), Options{MaxHeldBack: 5})
	if err == nil || !strings.Contains(err.Error(), "rev.swf:8: more than 5 records out of submit order: sort the log") {
		t.Errorf("reversed: %v", err)
	}
	r, err := OpenBytes("late.swf", []byte(lastEarly.String()), Options{MaxHeldBack: 5})
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = r.Next()
	}
	if err == io.EOF || !strings.Contains(err.Error(), "late.swf:7: more than 5 records wait for an earlier one further on (submit 0 s)") {
		t.Errorf("one late record: %v", err)
	}
	// Within the bound both come out sorted.
	for _, log := range []string{reversed.String(), lastEarly.String()} {
		r, err := OpenBytes("ok.swf", []byte(log), Options{MaxHeldBack: 25})
		if err != nil {
			t.Fatal(err)
		}
		jobs := tracetest.All(t, r)
		for i := 1; i < len(jobs); i++ {
			if jobs[i].Submit < jobs[i-1].Submit {
				t.Fatalf("job %s before %s", jobs[i-1].ID, jobs[i].ID)
			}
		}
	}
}
