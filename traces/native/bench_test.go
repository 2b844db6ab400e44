package native

import (
	"bytes"
	"io"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

func benchJobs(n int) []*sim.Job {
	jobs := make([]*sim.Job, n)
	for i := range jobs {
		jobs[i] = &sim.Job{ID: "job" + string(rune('a'+i%26)), Submit: sim.Time(i) * 1_510_000, Runtime: 3600 * sim.Second,
			Walltime: 7200 * sim.Second, Tasks: 1 + i%8, User: "alice", Queue: "batch", Gang: true,
			Request: []sim.Quantity{{Resource: "cpu", Amount: 4000}, {Resource: "mem", Amount: 2048500}}}
	}
	return jobs
}

func benchRead(b *testing.B, write func(io.Writer, []*sim.Job) error, read func(io.Reader, string, traces.Options) *Reader) {
	var buf bytes.Buffer
	if err := write(&buf, benchJobs(10000)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := read(bytes.NewReader(buf.Bytes()), "bench", traces.Options{Strict: true})
		if n := tracetest.Count(b, r); n != 10000 {
			b.Fatal(n)
		}
	}
}

func BenchmarkJSONL(b *testing.B) { benchRead(b, WriteJSONL, NewJSONLReader) }
func BenchmarkCSV(b *testing.B)   { benchRead(b, WriteCSV, NewCSVReader) }

// benchTraitJobs are benchJobs with a few traits each, the shape of a
// Kubernetes-like trace.
func benchTraitJobs(n int) []*sim.Job {
	jobs := benchJobs(n)
	for i, j := range jobs {
		j.Traits = &sim.Traits{
			Selector:    []sim.Label{{Key: "zone", Value: string(rune('a' + i%3))}},
			Tolerations: []sim.Toleration{{Key: "dedicated", Value: "ml", Effect: "NoSchedule"}},
			Constraints: []sim.Constraint{{Kind: "balanced-attribute", Attribute: "zone", Groups: 3, Soft: true}},
			Labels:      []sim.Label{{Key: "team", Value: "search"}},
		}
	}
	return jobs
}

func BenchmarkJSONLTraits(b *testing.B) {
	benchRead(b, func(w io.Writer, _ []*sim.Job) error { return WriteJSONL(w, benchTraitJobs(10000)) }, NewJSONLReader)
}

func BenchmarkCSVTraits(b *testing.B) {
	benchRead(b, func(w io.Writer, _ []*sim.Job) error { return WriteCSV(w, benchTraitJobs(10000)) }, NewCSVReader)
}
