package native

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// manyResources is the column count of the trace that took 5.9 s to
// check when each request cell was compared with every earlier one; the
// test runs in a fraction of a second only when the check is linear.
const manyResources = 50000

// TestManyResourceColumns: a CSV or JSON Lines job with 50,000 resource
// requests is read whole, and a resource given twice far down the list is
// still found.
func TestManyResourceColumns(t *testing.T) {
	names := make([]string, manyResources)
	for i := range names {
		names[i] = fmt.Sprintf("r%d", i)
	}
	csvText := func(names []string) string {
		var b strings.Builder
		b.WriteString("id,submit_s,runtime_s")
		for _, n := range names {
			b.WriteString(",req_" + n)
		}
		b.WriteString("\nj1,0,10" + strings.Repeat(",1", len(names)) + "\n")
		return b.String()
	}
	jsonText := func(names []string) string {
		var b strings.Builder
		b.WriteString(`{"id":"j1","submit_s":0,"runtime_s":10,"request":{`)
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:1", n)
		}
		b.WriteString("}}\n")
		return b.String()
	}
	read := func(name, text string) (int, error) {
		var r *Reader
		if strings.HasSuffix(name, ".csv") {
			r = NewCSVReader(strings.NewReader(text), name, traces.Options{Strict: true})
		} else {
			r = NewJSONLReader(strings.NewReader(text), name, traces.Options{Strict: true})
		}
		j, err := r.Next()
		if err != nil {
			return 0, err
		}
		return len(j.Request), nil
	}
	for _, tc := range []struct{ name, text string }{
		{"wide.csv", csvText(names)},
		{"wide.jsonl", jsonText(names)},
	} {
		n, err := read(tc.name, tc.text)
		if err != nil || n != manyResources {
			t.Errorf("%s: %d requests, err %v; want %d", tc.name, n, err, manyResources)
		}
	}
	dup := append(names[:len(names):len(names)], names[manyResources-17])
	_, err := read("dup.jsonl", jsonText(dup))
	if err == nil || !strings.Contains(err.Error(), "dup.jsonl:1: field request.r49983: given twice") {
		t.Errorf("duplicate request: %v", err)
	}
	_, err = read("dup.csv", csvText(dup))
	if err == nil || !strings.Contains(err.Error(), "field req_r49983: column given twice") {
		t.Errorf("duplicate column: %v", err)
	}
}
