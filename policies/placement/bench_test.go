package placement

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkPlace10k measures placements per second on 10,000 nodes at 70%
// occupancy (measure.go): each iteration places one task and gives it
// back.
func BenchmarkPlace10k(b *testing.B) {
	for _, bc := range []struct {
		name  string
		limit Limit
	}{{"full-scan", 0}, {"limit-auto", Auto}} {
		b.Run(bc.name, func(b *testing.B) {
			c, err := SyntheticCluster(10000)
			if err != nil {
				b.Fatal(err)
			}
			l := NewLedger(c)
			fillTo(c, l, 0.7)
			p, err := syntheticPipeline(c, bc.limit)
			if err != nil {
				b.Fatal(err)
			}
			tasks := []*Task{syntheticTask(c, 1, false), syntheticTask(c, 2, true)}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if err := placeAndGiveBack(p, l, tasks[i%2]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "placements/s")
			b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "placements/cpu-s")
		})
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// says what the work costs better than wall time (it includes the
// collector's workers).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
