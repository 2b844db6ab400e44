package alibaba

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// testdata holds the hand-written sample trace.
var testdata = filepath.Join("..", "..", "testdata", "alibaba")

// fromStrings reads tasks (and instances, when not "") given as text.
func fromStrings(tasks, instances string, opt Options) *Reader {
	var inst io.Reader
	if instances != "" {
		inst = strings.NewReader(instances)
	}
	return NewReader(strings.NewReader(tasks), "batch_task.csv", inst, "batch_instance.csv", opt)
}

// formatJob prints a job on one line for golden files.
func formatJob(j *sim.Job) string {
	var req []string
	for _, q := range j.Request {
		req = append(req, q.Resource+":"+q.Amount.String())
	}
	var deps []string
	for _, d := range j.DependsOn {
		deps = append(deps, d.ID)
	}
	wall := "none"
	if j.Walltime != sim.NoWalltime {
		wall = sim.FormatSeconds(j.Walltime)
	}
	return fmt.Sprintf("id=%s submit=%s runtime=%s walltime=%s tasks=%d request=%s group=%s queue=%s gang=%t depends_on=%s",
		j.ID, sim.FormatSeconds(j.Submit), sim.FormatSeconds(j.Runtime), wall, j.Tasks, strings.Join(req, ","),
		j.Group, j.Queue, j.Gang, strings.Join(deps, ","))
}

// formatJobs prints jobs one a line.
func formatJobs(jobs []*sim.Job) string {
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString(formatJob(j))
		b.WriteByte('\n')
	}
	return b.String()
}

// formatSkips prints skip counts by reason, sorted.
func formatSkips(s traces.Skips) string {
	var lines []string
	for reason, n := range s.ByReason {
		lines = append(lines, fmt.Sprintf("%d × %s", n, reason))
	}
	sort.Strings(lines)
	return fmt.Sprintf("skipped %d\n%s\n", s.Total, strings.Join(lines, "\n"))
}

// golden compares got with testdata/alibaba/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	tracetest.Golden(t, filepath.Join(testdata, "golden", name), got)
}
