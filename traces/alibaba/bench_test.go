package alibaba

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/traces/tracetest"
)

// synthTasks writes jobs of the sample's shape: a 5-task DAG per job,
// jobs listed in submit order with a little disorder.
func synthTasks(jobs int) []byte {
	var b bytes.Buffer
	for j := 0; j < jobs; j++ {
		start := 1 + j*3 - (j%7)*2 // a few jobs start before the previous one
		for k, name := range []string{"M1", "M2_1", "M3_1", "R4_2", "M5_3_4"} {
			fmt.Fprintf(&b, "%s,%d,j_%d,1,Terminated,%d,%d,100,0.39\n", name, 1+k, j, start+k*10, start+k*10+30)
		}
	}
	return b.Bytes()
}

// BenchmarkReader reads 100,000 jobs (500,000 batch_task rows).
func BenchmarkReader(b *testing.B) {
	data := synthTasks(100_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data), "batch_task.csv", nil, "", Options{})
		if n := tracetest.Count(b, r); n != 500_000 {
			b.Fatalf("%d jobs", n)
		}
	}
	b.ReportMetric(float64(500_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}
