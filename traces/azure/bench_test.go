package azure

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/traces/tracetest"
)

// BenchmarkReader reads 200,000 VMs, shuffled within blocks of 64 rows.
func BenchmarkReader(b *testing.B) {
	const n = 200_000
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		created := (i/64)*600 + (63-i%64)*5 // decreasing within each block
		fmt.Fprintf(&buf, "vm%d,s%d,d%d,%d,%d,50.1,10.2,40.3,Interactive,8,32\n", i, i%500, i%2000, created, created+3600)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data), "vmtable.csv", Options{})
		if k := tracetest.Count(b, r); k != n {
			b.Fatalf("%d VMs", k)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}
