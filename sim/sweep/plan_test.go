package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// A dry run plans and checks every run of its shard and counts those
// done, writing nothing.
func TestDryRun(t *testing.T) {
	spec := smallExperiment(t)
	dir := filepath.Join(t.TempDir(), "sweep")
	o, err := (&Sweeper{Dir: dir}).DryRun(spec, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o.Runs != 2 || o.AlreadyDone != 0 || o.Ran != 0 {
		t.Errorf("before the sweep: %+v", o)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a dry run made %s (%v)", dir, err)
	}
	if _, err := (&Sweeper{Dir: dir, Workers: 1}).Sweep(context.Background(), spec, 1, 2); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ index, count, runs, done int }{{0, 1, 2, 1}, {0, 2, 1, 0}, {1, 2, 1, 1}} {
		o, err := (&Sweeper{Dir: dir}).DryRun(spec, c.index, c.count)
		if err != nil {
			t.Fatal(err)
		}
		if o.Runs != c.runs || o.AlreadyDone != c.done {
			t.Errorf("shard %d/%d after shard 1/2 ran: %d runs, %d done; want %d, %d", c.index, c.count, o.Runs, o.AlreadyDone, c.runs, c.done)
		}
	}
}

// A setting wrong in every run is reported before anything is written,
// each run's problem up to maxProblems, then how many more runs have one:
// not a line per run of a large sweep.
func TestCheckListsSomeProblems(t *testing.T) {
	trace, err := filepath.Abs("../../testdata/experiments/kth-sp2-2000.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for i := range 50 {
		values = append(values, "x"+strings.Repeat("y", i))
	}
	path := filepath.Join(t.TempDir(), "bad.yaml")
	text := "seed: 1\ntraces: [{name: kth, path: " + trace + "}]\nparameters:\n  ranges: [{name: checkpoint_s, values: [" + strings.Join(values, ", ") + "]}]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := experiment.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sweep")
	_, err = (&Sweeper{Dir: dir, Workers: 1}).Sweep(context.Background(), spec, 0, 1)
	if run.ExitCode(err) != run.ExitBadInput {
		t.Fatalf("got %v, want bad input", err)
	}
	msg := err.Error()
	if n := strings.Count(msg, "checkpoint_s = x"); n != maxProblems || !strings.HasSuffix(msg, "… and 30 more runs with problems") {
		t.Errorf("%d problems listed, want %d, then the count of the rest:\n%s", n, maxProblems, msg)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused sweep made %s (%v)", dir, err)
	}
}
