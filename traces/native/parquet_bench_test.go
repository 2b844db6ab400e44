package native

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// Parquet reading speed (the goal: ≥ 2 million rows/s for an HPC-shaped
// trace):
//
//	go test -run X -bench Parquet -benchmem ./traces/native
//
// rows/s is wall time; rows/cpu-s divides by the CPU time of the whole
// process (garbage collection included), which a busy machine disturbs
// less.

// cpuSeconds is the process's user + system time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// benchRows runs read once per iteration over a trace of rows rows and
// reports rows/s and rows/cpu-s.
func benchRows(b *testing.B, rows int, read func() int) {
	b.ReportAllocs()
	cpu := cpuSeconds()
	for b.Loop() {
		if n := read(); n != rows {
			b.Fatalf("%d rows, want %d", n, rows)
		}
	}
	total := float64(rows) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(total/(cpuSeconds()-cpu), "rows/cpu-s")
}

// benchParquet reads a Parquet trace of jobs from memory with the Reader.
func benchParquet(b *testing.B, jobs []*sim.Job) {
	data := parquetBytes(b, jobs, nil)
	b.SetBytes(int64(len(data)))
	benchRows(b, len(jobs), func() int {
		r, err := NewParquetReader(bytes.NewReader(data), "bench", traces.Options{Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		return tracetest.Count(b, r)
	})
}

// uniqueJobs are benchJobs with distinct ids, as a real trace has.
func uniqueJobs(n int) []*sim.Job {
	jobs := benchJobs(n)
	for i, j := range jobs {
		j.ID = strconv.Itoa(i + 1)
	}
	return jobs
}

func BenchmarkParquet(b *testing.B)       { benchParquet(b, uniqueJobs(200_000)) }
func BenchmarkParquetTraits(b *testing.B) { benchParquet(b, benchTraitJobs(200_000)) }

// The two ways the library decodes the columns, without making jobs: as
// Arrow records (pqarrow) and with its column readers, which the Reader
// uses because they are faster.

func BenchmarkParquetDecodeArrow(b *testing.B) {
	data := parquetBytes(b, uniqueJobs(200_000), nil)
	benchRows(b, 200_000, func() int {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer rr.Release()
		n := 0
		for rr.Next() {
			n += int(rr.Record().NumRows())
		}
		return n
	})
}

func BenchmarkParquetDecodeColumns(b *testing.B) {
	data := parquetBytes(b, uniqueJobs(200_000), nil)
	ints := make([]int64, batchRows)
	bytes_ := make([]parquet.ByteArray, batchRows)
	bools := make([]bool, batchRows)
	def := make([]int16, batchRows)
	benchRows(b, 200_000, func() int {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for g := range pf.NumRowGroups() {
			rg := pf.RowGroup(g)
			for c := range rg.NumColumns() {
				cr, err := rg.Column(c)
				if err != nil {
					b.Fatal(err)
				}
				for cr.HasNext() {
					var rows int64
					switch r := cr.(type) {
					case *file.Int64ColumnChunkReader:
						rows, _, err = r.ReadBatch(batchRows, ints, def, nil)
					case *file.ByteArrayColumnChunkReader:
						rows, _, err = r.ReadBatch(batchRows, bytes_, def, nil)
					case *file.BooleanColumnChunkReader:
						rows, _, err = r.ReadBatch(batchRows, bools, def, nil)
					}
					if err != nil {
						b.Fatal(err)
					}
					if c == 0 {
						n += int(rows)
					}
				}
			}
		}
		return n
	})
}

// BenchmarkParquetFile reads the Parquet trace named by
// $SCHEDSIM_BENCH_PARQUET (skipped without it), from the page cache:
//
//	schedsim convert ../shared/traces/swf/CEA-Curie-2011-2.1-cln.swf.gz --to /tmp/curie.parquet
//	SCHEDSIM_BENCH_PARQUET=/tmp/curie.parquet go test -run X -bench ParquetFile ./traces/native
func BenchmarkParquetFile(b *testing.B) {
	path := os.Getenv("SCHEDSIM_BENCH_PARQUET")
	if path == "" {
		b.Skip("set SCHEDSIM_BENCH_PARQUET to a Parquet trace")
	}
	count := func() int {
		r, err := Open(path, traces.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		return tracetest.Count(b, r)
	}
	rows := count()
	if fi, err := os.Stat(path); err == nil {
		b.SetBytes(fi.Size())
	}
	benchRows(b, rows, count)
}
