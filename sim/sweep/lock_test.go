package sweep

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// A second sweep of the same shard into the same directory is refused
// while the first runs (it would remove the first one's staging); so is a
// sweep of another shard count (an unsharded sweep and a sharded one
// collided: both failed), and a merge; shards of one count run side by
// side.
func TestSweepLock(t *testing.T) {
	dir := t.TempDir()
	release, err := lockShard(dir, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockShard(dir, 0, 1); run.ExitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "another sweep of shard 0/1") {
		t.Errorf("a second lock: %v", err)
	}
	if _, err := lockShard(dir, 1, 2); run.ExitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "an unsharded sweep is running there; sweeps of one directory must use the same --shards") {
		t.Errorf("a sharded sweep beside an unsharded one: %v", err)
	}
	if _, err := lockMerge(dir); run.ExitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "a sweep is running there") {
		t.Errorf("merge during a sweep: %v", err)
	}
	release()
	shard0, err := lockShard(dir, 0, 3)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	shard1, err := lockShard(dir, 1, 3)
	if err != nil {
		t.Errorf("another shard of the same count: %v", err)
	} else {
		shard1()
	}
	if _, err := lockShard(dir, 0, 1); run.ExitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "a sweep of 3 shards is running there") {
		t.Errorf("an unsharded sweep beside a sharded one: %v", err)
	}
	shard0()
	merging, err := lockMerge(dir)
	if err != nil {
		t.Fatalf("merge after the sweeps: %v", err)
	}
	if _, err := lockShard(dir, 0, 1); run.ExitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), "merge is writing there") {
		t.Errorf("a sweep during a merge: %v", err)
	}
	merging()
	again, err := lockShard(dir, 0, 1)
	if err != nil {
		t.Fatalf("after the merge: %v", err)
	}
	again()
}
