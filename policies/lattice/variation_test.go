package lattice

import (
	"reflect"
	"testing"
)

// On one topology group, with jobs that carry no priority or labels, only
// f₂, f₃ and f₉ tell queued jobs apart. X takes 2 of 4 nodes until 100;
// at 20 Y (3 tasks, waited 10 s, user uY: deficit 1, conformance 2/3)
// and Z (4 tasks, waited 0, X's user: deficit < 1, conformance 2/4) are
// ranked together, and again at 100 when X ends (then Y starts): two
// passes of two jobs; at 20 wait_time, fair_share and conformance differ;
// topology is 1 − 1/1 = 0 for both,
// backlog and energy are global, priority 0, data_ready 0.5, checkpoint 0.
func TestVariationInertFactors(t *testing.T) {
	cl := nodesCluster(t, 4, nil)
	s, err := New(cl, Config{})
	if err != nil {
		t.Fatal(err)
	}
	z := job("Z", 20, 10, 4)
	z.User = "uX"
	runWith(t, cl, s, job("X", 0, 100, 2), job("Y", 10, 10, 3), z)
	v := s.Variation()
	if v.Passes != 2 || v.Varied[FConformance] != 1 || v.Varied[FWaitTime] != 2 {
		t.Fatalf("%+v: want 2 passes, wait_time varied in both, conformance in the first", v)
	}
	want := []Factor{FPriority, FTopology, FDataReady, FBacklog, FEnergy, FCheckpoint}
	if got := v.Inert(); !reflect.DeepEqual(got, want) {
		t.Errorf("inert %v, want %v", got, want)
	}
	var none FactorVariation
	if none.Inert() != nil {
		t.Error("no pass measured must name no factor inert")
	}
}
