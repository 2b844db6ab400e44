package lattice

import (
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// benchWorkload is 5,000 one-cpu nodes in 100 racks of 50 with four
// conformance fingerprints (by rack), 4,900 of them busy with single-node
// jobs of different lengths, and 10,000 jobs of 1–64 nodes queued behind
// them from 100 users: every cycle scores and sorts 10,000 jobs, reserves
// for the best blocked one over 4,900 expected ends, and tries the rest.
func benchWorkload(tb testing.TB) (*sim.Cluster, []*sim.Job) {
	cl := nodesCluster(tb, 5000, func(i int) map[string]string {
		return map[string]string{"rack": fmt.Sprintf("r%d", i/50), "conformance": fmt.Sprintf("fp%d", (i/50)%4)}
	})
	var jobs []*sim.Job
	x := uint64(42)
	next := func(n uint64) int64 { // a fixed LCG: the same workload every run
		x = x*6364136223846793005 + 1442695040888963407
		return int64((x >> 33) % n)
	}
	for i := 0; i < 4900; i++ {
		j := job(fmt.Sprintf("f%d", i), 0, 3600+next(86400), 1)
		j.Priority = 10
		jobs = append(jobs, j)
	}
	for i := 0; i < 10000; i++ {
		j := job(fmt.Sprintf("q%d", i), 1, 60+next(7200), 1+int(next(64)))
		j.User = fmt.Sprintf("u%d", next(100))
		j.Priority = int(next(4))
		jobs = append(jobs, j)
	}
	return cl, jobs
}

// cycleTimer runs the lattice pass again and again at t = 1 s, once the
// engine has queued the 10,000 jobs: each run is one full scheduling cycle
// on the same state (nothing more fits after the first).
type cycleTimer struct {
	*Scheduler
	b      *testing.B
	cycles int
}

func (ct *cycleTimer) Schedule(c *sim.Context) error {
	if err := ct.Scheduler.Schedule(c); err != nil || c.Now() != sim.Second {
		return err
	}
	ct.b.ResetTimer()
	for i := 0; i < ct.b.N; i++ {
		if err := ct.Scheduler.Schedule(c); err != nil {
			return err
		}
	}
	ct.b.StopTimer()
	ct.cycles = ct.b.N
	return nil
}

// BenchmarkCycle measures scheduling cycles/s with 10,000 queued jobs on a
// 5,000-node cluster (goal ≥ 20).
func BenchmarkCycle(b *testing.B) {
	cl, jobs := benchWorkload(b)
	s, err := New(cl, Config{Profiles: mustProfiles(b, "hpc-batch")})
	if err != nil {
		b.Fatal(err)
	}
	ct := &cycleTimer{Scheduler: s, b: b}
	e := sim.NewEngine(cl, &sim.SliceSource{Jobs: jobs}, ct, sim.Config{Until: sim.Second})
	if err := e.Run(); err != nil {
		b.Fatal(err)
	}
	if ct.cycles == 0 {
		b.Fatal("no cycle timed")
	}
	if n := len(s.Ranking()); n < 9900 {
		b.Fatalf("only %d jobs ranked", n)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

func mustProfiles(tb testing.TB, name string) *Profiles {
	ps, err := NamedProfiles(name, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return ps
}
