package metrics

import (
	"math"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestCalibrationResolutionAndWindow: waits are rounded to the recorded
// resolution before they are compared, and a window keeps the comparison
// (and the share it needs) to the jobs submitted in it.
func TestCalibrationResolutionAndWindow(t *testing.T) {
	s := sim.Second
	c := calibration{resolution: 60 * s, from: 100 * s}
	jobs := []struct{ submit, start, recorded sim.Time }{
		{0, 10 * s, 60 * s},         // before the window: not compared
		{100 * s, 110 * s, 100 * s}, // waits 10 s, 0 s: both round to 0
		{200 * s, 229 * s, 260 * s}, // 29 s → 0, 60 s → 60
		{300 * s, 330 * s, 360 * s}, // 30 s → 60 (halves up), 60 s → 60
	}
	for _, j := range jobs {
		job := &sim.Job{Submit: j.submit, Recorded: true, RecordedStart: j.recorded}
		c.submitted(job)
		c.started(job, j.start, j.submit)
	}
	if c.windowed != 3 || c.simWait.len() != 3 {
		t.Fatalf("windowed %d, compared %d: want 3 and 3", c.windowed, c.simWait.len())
	}
	cols := c.cols(1, 0, 300*s, 100, false) // 100 jobs in the run: the window's 3 count, not them
	got := map[string]float64{}
	for _, col := range cols {
		got[col.name] = col.f
	}
	// simulated {0, 0, 60}, recorded {0, 60, 60}: KS 1/3, mean 60/120, p95
	// (type 7) 54/60.
	if math.Abs(got["calib_wait_ks"]-1.0/3) > 1e-12 || got["calib_mean_wait_ratio"] != 0.5 || math.Abs(got["calib_p95_wait_ratio"]-0.9) > 1e-12 {
		t.Errorf("got %v", got)
	}
}
