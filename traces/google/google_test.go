package google

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

const testdata = "../../testdata/google"

func dumpJob(j *sim.Job) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id=%q submit=%s runtime=%s tasks=%d request=[", j.ID, j.Submit, j.Runtime, j.Tasks)
	for i, q := range j.Request {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", q.Resource, q.Amount)
	}
	fmt.Fprintf(&b, "] user=%q group=%q queue=%q priority=%d", j.User, j.Group, j.Queue, j.Priority)
	if t := j.Traits; t != nil {
		fmt.Fprintf(&b, " labels=%q aversion=%q constraints=[", t.Labels, t.AversionGroups)
		for i, c := range t.Constraints {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "{%s %q %q}", c.Kind, c.Attribute, c.Value)
		}
		b.WriteByte(']')
	}
	return b.String()
}

// dump is the golden text of a whole reading: jobs, nodes, node events,
// statistics and skips.
func dump(r *Reader, jobs []*sim.Job) string {
	var b strings.Builder
	b.WriteString("# jobs (submit and runtime in seconds; amounts in thousandths)\n")
	for _, j := range jobs {
		b.WriteString(dumpJob(j) + "\n")
	}
	b.WriteString("# nodes\n")
	for _, n := range r.Nodes() {
		keys := make([]string, 0, len(n.Attributes))
		for k := range n.Attributes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "%s capacity=[", n.Name)
		for i, q := range n.Capacity {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%d", q.Resource, q.Amount)
		}
		b.WriteString("] attributes={")
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s=%q", k, n.Attributes[k])
		}
		b.WriteString("}\n")
	}
	b.WriteString("# node events\n")
	for _, e := range r.NodeEvents() {
		fmt.Fprintf(&b, "%s %s %s\n", e.At, e.Node, e.Kind)
	}
	s := r.Stats()
	fmt.Fprintf(&b, "# stats\nattempts=%d jobs=%d never_ran=%d ran_past_end=%d resubmissions=%d alloc_rows=%d trace_end=%s\n",
		s.Attempts, s.Jobs, s.NeverRan, s.RanPastEnd, s.Resubmissions, s.AllocRows, r.TraceEnd())
	fmt.Fprintf(&b, "machines=%d no_capacity=%d updates=%d node_events=%d\n",
		s.Machines.Machines, s.Machines.NoCapacity, s.Machines.Updates, s.Machines.Events)
	sk := r.Skips()
	fmt.Fprintf(&b, "skipped=%d\n", sk.Total)
	return b.String()
}

func openAll(t testing.TB, dir string, opt Options) (*Reader, []*sim.Job) {
	t.Helper()
	r, err := Open(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	jobs, err := tracetest.Drain(r)
	if err != nil {
		t.Fatal(err)
	}
	return r, jobs
}

// TestGolden reads each sample in strict mode and compares everything it
// yields with <version>.golden (go test -update rewrites them). The
// samples' story, with the arithmetic of each job, is in
// testdata/google/README.md.
func TestGolden(t *testing.T) {
	for _, v := range []string{"2011", "2019"} {
		t.Run(v, func(t *testing.T) {
			dir := filepath.Join(testdata, v)
			if _, err := os.Stat(dir); err != nil {
				t.Skip("no sample")
			}
			r, jobs := openAll(t, dir, Options{Options: traces.Options{Strict: true}})
			got := dump(r, jobs)
			tracetest.Golden(t, filepath.Join(testdata, v+".golden"), got)
		})
	}
}
