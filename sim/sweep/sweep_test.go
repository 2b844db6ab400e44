package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsim/schedsim/sim/experiment"
)

// smallExperiment is two runs on the first 2,000 jobs of KTH-SP2.
func smallExperiment(t *testing.T) *experiment.Spec {
	t.Helper()
	trace, err := filepath.Abs("../../testdata/experiments/kth-sp2-2000.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.yaml")
	text := "name: small\nseed: 7\ntraces: [{name: kth, path: " + trace + "}]\npolicies: {backfill: [none, easy]}\nreplay: {format: csv}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := experiment.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// A sweep says what it ran, a second one keeps the finished runs, and two
// shards merged give the summary one process wrote, byte for byte.
func TestSweepShardsMerge(t *testing.T) {
	spec := smallExperiment(t)
	whole := filepath.Join(t.TempDir(), "whole")
	sw := &Sweeper{Dir: whole, Workers: 2}
	o, err := sw.Sweep(context.Background(), spec, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o.Runs != 2 || o.Ran != 2 || o.AlreadyDone != 0 || len(o.Summaries) != 2 || o.Where() != "" {
		t.Errorf("first sweep: %+v", o)
	}
	again, err := (&Sweeper{Dir: whole, Workers: 1}).Sweep(context.Background(), spec, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if again.Ran != 0 || again.AlreadyDone != 2 {
		t.Errorf("second sweep replayed finished runs: %+v", again)
	}
	sharded := filepath.Join(t.TempDir(), "sharded")
	for i := range 2 {
		o, err := (&Sweeper{Dir: sharded, Workers: 1}).Sweep(context.Background(), spec, i, 2)
		if err != nil {
			t.Fatal(err)
		}
		if o.Runs != 1 || o.Where() == "" || len(o.Summaries) != 1 || o.Summaries[0] != ShardSummaryPath(sharded, i, 2) {
			t.Errorf("shard %d: %+v", i, o)
		}
	}
	n, err := Merge(sharded, nil, experiment.DefaultMaxRuns)
	if err != nil || n != 2 {
		t.Fatalf("merge: %d runs, %v", n, err)
	}
	for _, f := range []string{"summary.csv", "summary.parquet"} {
		a, errA := os.ReadFile(filepath.Join(whole, f))
		b, errB := os.ReadFile(filepath.Join(sharded, f))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: merged shards differ from the whole sweep (%v, %v)", f, errA, errB)
		}
	}
}
