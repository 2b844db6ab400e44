package placement

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestForgetPlacements places jobs of several tasks (some of which fit
// only in part, so PlaceJob gives back what it booked) through a ledger
// that records placements and one that forgets them, released by Release
// and by ReleaseNodes with the nodes PlaceJob returned: both choose the
// same nodes and hold the same free amounts and task counts throughout.
func TestForgetPlacements(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var nodes []sim.NodeSpec
	for i := 0; i < 40; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("n%02d", i),
			Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(int64(2 + i%3))}, {Resource: "mem", Amount: sim.Units(8)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Strategy: "least-allocated", Limit: 6}
	pk, _ := Build(c, spec)
	pf, _ := Build(c, spec)
	kept, forgot := NewLedger(c), NewLedger(c)
	forgot.ForgetPlacements()
	type placed struct {
		task  *Task
		nodes []int32
	}
	var live []placed
	partial := 0
	for step := 0; step < 4000; step++ {
		if len(live) > 0 && rng.IntN(2) == 0 {
			k := rng.IntN(len(live))
			kept.Release(live[k].task)
			forgot.ReleaseNodes(live[k].task, live[k].nodes)
			live = append(live[:k], live[k+1:]...)
		} else {
			job := &sim.Job{ID: fmt.Sprint(step), Tasks: 1 + rng.IntN(6), Request: []sim.Quantity{
				{Resource: "cpu", Amount: sim.Units(int64(1 + rng.IntN(2)))}, {Resource: "mem", Amount: sim.Units(int64(1 + rng.IntN(3)))}}}
			need, immune, _ := c.Compile(job)
			task := &Task{Key: int64(step), Job: job, Need: need, Immune: immune}
			a, _ := pk.PlaceJob(kept, task, job.Tasks, nil, nil)
			b, _ := pf.PlaceJob(forgot, task, job.Tasks, nil, nil)
			if !slices.Equal(a, b) {
				t.Fatalf("step %d: recording ledger placed on %v, forgetting one on %v", step, a, b)
			}
			if a == nil {
				partial++
			} else {
				live = append(live, placed{task, a})
			}
		}
		if !slices.Equal(kept.Free, forgot.Free) || !slices.Equal(kept.Tasks, forgot.Tasks) {
			t.Fatalf("step %d: free or task counts differ", step)
		}
	}
	if partial == 0 {
		t.Fatal("no job failed to place: the test does not reach PlaceJob's give-back")
	}
}
