package transform

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

func labelled(id string, labels ...sim.Label) *sim.Job {
	j := &sim.Job{ID: id, Tasks: 1, Runtime: 100 * sim.Second, Walltime: 100 * sim.Second}
	if len(labels) > 0 {
		j.Traits = &sim.Traits{Labels: labels}
	}
	return j
}

// TestCheckpoints: labels set a job's interval and cost, on a copy; a job
// without them takes the run's interval; a bad label is a parse error that
// names the file and the label.
func TestCheckpoints(t *testing.T) {
	own := labelled("own", sim.Label{Key: "checkpoint_s", Value: "30"}, sim.Label{Key: "checkpoint_cost_s", Value: "5"})
	plain := labelled("plain", sim.Label{Key: "user", Value: "u1"})
	src := Checkpoints(&sim.SliceSource{Jobs: []*sim.Job{own, plain}}, 60*sim.Second, "trace.jsonl")
	a, err := src.Next()
	if err != nil || a.CheckpointInterval != 30*sim.Second || a.CheckpointCost != 5*sim.Second {
		t.Fatalf("labelled job: %+v, %v", a, err)
	}
	if a == own || own.CheckpointInterval != 0 {
		t.Error("the reader's job was changed, not a copy")
	}
	b, err := src.Next()
	if err != nil || b.CheckpointInterval != 60*sim.Second || b.CheckpointCost != 0 {
		t.Fatalf("job without labels: %+v, %v", b, err)
	}
	if _, err := src.Next(); err != io.EOF {
		t.Fatalf("after the jobs: %v", err)
	}

	bad := Checkpoints(&sim.SliceSource{Jobs: []*sim.Job{labelled("j9", sim.Label{Key: "checkpoint_cost_s", Value: "-1"})}}, 0, "trace.jsonl")
	_, err = bad.Next()
	var pe *traces.ParseError
	if !errors.As(err, &pe) || pe.File != "trace.jsonl" || pe.Field != "labels.checkpoint_cost_s" || !strings.Contains(err.Error(), "j9") {
		t.Fatalf("bad label: %v", err)
	}
}

// TestCheckpointsUnchanged: a job that needs no change is passed as it is.
func TestCheckpointsUnchanged(t *testing.T) {
	j := labelled("j")
	got, err := Checkpoints(&sim.SliceSource{Jobs: []*sim.Job{j}}, 0, "f").Next()
	if err != nil || got != j {
		t.Fatalf("got %p (%v), want the reader's job %p", got, err, j)
	}
}
