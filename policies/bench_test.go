package policies

import (
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// synthetic streams n seeded jobs for a pool of procs processors: Poisson
// arrivals at about 90 % offered load, log-uniform sizes, exponential
// runtimes, walltimes 1–3× the runtime.
type synthetic struct {
	rng   *rand.Rand
	n, i  int
	procs int
	now   float64
}

func newSynthetic(n, procs int) *synthetic {
	return &synthetic{rng: rand.New(rand.NewPCG(1, 2)), n: n, procs: procs}
}

func (s *synthetic) Next() (*sim.Job, error) {
	if s.i == s.n {
		return nil, io.EOF
	}
	s.i++
	size := int64(math.Exp(s.rng.Float64() * math.Log(float64(s.procs)/4)))
	run := s.rng.ExpFloat64() * 3600
	// mean work per job ≈ E[size]·3600; spacing gives ~90 % load.
	meanSize := (float64(s.procs)/4 - 1) / math.Log(float64(s.procs)/4)
	s.now += s.rng.ExpFloat64() * meanSize * 3600 / (0.9 * float64(s.procs))
	return &sim.Job{
		ID:       strconv.Itoa(s.i),
		Submit:   sim.SecondsToTime(s.now),
		Runtime:  sim.SecondsToTime(run),
		Walltime: sim.SecondsToTime(run * (1 + 2*s.rng.Float64())),
		Tasks:    1,
		Request:  []sim.Quantity{{Resource: "cpu", Amount: sim.Units(max(size, 1))}},
	}, nil
}

// BenchmarkMillionJobs replays a million synthetic jobs on 10,000
// processors (the pool model) with FCFS and EASY, engine and policy only.
func BenchmarkMillionJobs(b *testing.B) {
	for _, bf := range []Backfill{NoBackfill, EASY} {
		b.Run(string(bf), func(b *testing.B) {
			var events int64
			for i := 0; i < b.N; i++ {
				c := poolCluster(b, 10000)
				s, _ := NewBatch(bf)
				e := sim.NewEngine(c, newSynthetic(1_000_000, 10000), s, sim.Config{KillAtWalltime: true})
				if err := e.Run(); err != nil {
					b.Fatal(err)
				}
				events += e.EventsApplied()
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
