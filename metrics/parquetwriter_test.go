package metrics

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/schedsim/schedsim/sim"
)

// bothParquetFiles writes recs through the pqarrow writer and the direct
// writer and returns the two files.
func bothParquetFiles(t testing.TB, schema *arrow.Schema, recs []arrow.Record) (lib, direct []byte) {
	t.Helper()
	withoutChecksums(t)
	mem := memory.NewGoAllocator()
	var a, b bytes.Buffer
	lw, err := newLibraryParquetWriter(schema, &a, mem)
	if err != nil {
		t.Fatal(err)
	}
	cols, ok := directColumns(schema)
	if !ok {
		t.Fatalf("schema %s not handled by the direct writer", schema)
	}
	dw, err := newDirectParquetWriter(schema, cols, &b)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := lw.write(rec); err != nil {
			t.Fatal(err)
		}
		if err := dw.write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := lw.close(); err != nil {
		t.Fatal(err)
	}
	if err := dw.close(); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

// withoutChecksums makes the direct writer's pages carry no CRC, as the
// library writes them, for the tests that compare both writers' bytes.
func withoutChecksums(t testing.TB) {
	pageChecksums = false
	t.Cleanup(func() { pageChecksums = true })
}

// requireSameParquet fails with the first differing offset.
func requireSameParquet(t testing.TB, schema *arrow.Schema, recs []arrow.Record) {
	t.Helper()
	lib, direct := bothParquetFiles(t, schema, recs)
	if bytes.Equal(lib, direct) {
		return
	}
	i := 0
	for i < len(lib) && i < len(direct) && lib[i] == direct[i] {
		i++
	}
	lo := max(0, i-16)
	t.Fatalf("files differ at byte %d of %d (library) / %d (direct)\nlibrary: % x\ndirect:  % x",
		i, len(lib), len(direct), lib[lo:min(len(lib), i+32)], direct[lo:min(len(direct), i+32)])
}

// recordShape says how randomRecord fills columns.
type recordShape struct {
	rows      int
	nullEvery int // 0: no nulls; 1: all null; k: about one in k
	strLen    int // longest string
	strMin    int // shortest non-empty string
	special   bool
}

var specialFloats = []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
var specialInts = []int64{0, -1, math.MaxInt64, math.MinInt64, 1}

// randomRecord builds a record of schema from r.
func randomRecord(schema *arrow.Schema, r *rand.Rand, sh recordShape) arrow.Record {
	rb := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer rb.Release()
	for i, f := range schema.Fields() {
		b := rb.Field(i)
		for range sh.rows {
			if f.Nullable && sh.nullEvery > 0 && r.IntN(sh.nullEvery) == 0 {
				b.AppendNull()
				continue
			}
			special := sh.special && r.IntN(4) == 0
			switch b := b.(type) {
			case *array.Float64Builder:
				if special {
					b.Append(specialFloats[r.IntN(len(specialFloats))])
				} else {
					b.Append(r.NormFloat64() * 1e3)
				}
			case *array.Int64Builder:
				if special {
					b.Append(specialInts[r.IntN(len(specialInts))])
				} else {
					b.Append(r.Int64N(1e6) - 5e5)
				}
			case *array.TimestampBuilder:
				if special {
					b.Append(arrow.Timestamp(specialInts[r.IntN(len(specialInts))]))
				} else {
					b.Append(arrow.Timestamp(8e14 + r.Int64N(1e12)))
				}
			case *array.StringBuilder:
				n := 0
				if sh.strLen > 0 {
					n = sh.strMin + r.IntN(sh.strLen-sh.strMin+1)
				}
				var sb strings.Builder
				for range n {
					sb.WriteByte(byte('a' + r.IntN(4)))
				}
				b.Append(sb.String())
			case *array.BooleanBuilder:
				b.Append(r.IntN(3) == 0)
			default:
				panic(fmt.Sprintf("randomRecord: %T", b))
			}
		}
	}
	return rb.NewRecord()
}

// allKindsSchema has every column type, nullable and not.
func allKindsSchema(meta *arrow.Metadata) *arrow.Schema {
	var fields []arrow.Field
	for _, nullable := range []bool{false, true} {
		for _, typ := range []arrow.DataType{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64,
			arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean, arrow.FixedWidthTypes.Timestamp_us} {
			fields = append(fields, arrow.Field{Name: fmt.Sprintf("%s_%v", typ, nullable), Type: typ, Nullable: nullable})
		}
	}
	return arrow.NewSchema(fields, meta)
}

func TestDirectParquetSameBytes(t *testing.T) {
	meta := arrow.NewMetadata([]string{"schedsim:epoch"}, []string{"2011-01-01T00:00:00Z"})
	schema := allKindsSchema(nil)
	cases := []struct {
		name   string
		schema *arrow.Schema
		shapes []recordShape
	}{
		{"one row", schema, []recordShape{{rows: 1, strLen: 5}}},
		{"zero rows", schema, []recordShape{{rows: 0}}},
		{"no records", schema, nil},
		{"no nulls", schema, []recordShape{{rows: 5000, strLen: 20, special: true}}},
		{"some nulls", schema, []recordShape{{rows: 5000, nullEvery: 5, strLen: 20, special: true}}},
		{"all null", schema, []recordShape{{rows: 3000, nullEvery: 1}}},
		{"empty strings", schema, []recordShape{{rows: 2000, strLen: 0, nullEvery: 9}}},
		{"many row groups", schema, []recordShape{{rows: 200_000, nullEvery: 3, strLen: 8, special: true}}},
		{"big pages", schema, []recordShape{{rows: 3000, nullEvery: 4, strLen: 2000}}},
		{"long stats", schema, []recordShape{{rows: 50, strLen: 9000}}},
		// Min and max of 2–4 KB: a column chunk's metadata passes 4,096
		// bytes, part of which the library leaves after the pages.
		{"stats near the limit", schema, []recordShape{{rows: 40, strMin: 2100, strLen: 4096}}},
		{"stats at the limit", schema, []recordShape{{rows: 3, strMin: 4096, strLen: 4096}}},
		// Over 8,192 booleans and not a multiple of 8: the last byte
		// keeps bits of the bit buffer's previous fill.
		{"bool buffer refill", schema, []recordShape{{rows: 20_001, nullEvery: 7, strLen: 1}, {rows: 8193}}},
		// A batch ending on a byte boundary leaves the buffer writer's
		// cached byte one behind: the next byte starts as a copy of it.
		{"bool batch boundary", schema, []recordShape{{rows: 3073, strLen: 1}}},
		{"records", schema, []recordShape{{rows: 100, nullEvery: 2, strLen: 3}, {rows: 70_000, strLen: 4},
			{rows: 0}, {rows: 9000, nullEvery: 100, special: true}}},
		{"schema metadata", allKindsSchema(&meta), []recordShape{{rows: 10, nullEvery: 2, strLen: 3}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			var recs []arrow.Record
			for _, sh := range tc.shapes {
				rec := randomRecord(tc.schema, r, sh)
				defer rec.Release()
				recs = append(recs, rec)
			}
			requireSameParquet(t, tc.schema, recs)
		})
	}
}

// TestDirectParquetEveryTable records a replay with every table the
// package writes (calendar columns, the measured flag, tenants,
// decisions, ownership, services) through both writers: every file is
// the same bytes.
func TestDirectParquetEveryTable(t *testing.T) {
	c := synthCluster(t, 16)
	jobs := synthJobs(3000, 11)
	opt := Options{
		Epoch:    time.Date(2011, 2, 3, 4, 5, 6, 7000, time.UTC),
		TimeZone: "Europe/Paris",
		Measured: func(r *sim.JobRun) bool { return r.Job.Submit > secs(100) },
		Labels:   []Label{{Name: "policy", Value: "fcfs"}},
	}
	record := func(dir string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		rec, err := newRecorder(dir, c, opt, mem)
		if err != nil {
			t.Fatal(err)
		}
		rec.jobs.cut, rec.series.cut = 700, 900
		e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, &fcfs{}, sim.Config{KillAtWalltime: true}, rec)
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		log, err := rec.Decisions([]string{"fit", "spread"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5000 {
			if err := log.Add(secs(float64(i)), fmt.Sprint("j", i), i%3, int32(i%16), float64(i)/7, []float64{math.NaN(), -float64(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := log.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := rec.Ownership([]OwnershipChange{{At: secs(1), Node: 2, Holder: "a"}, {At: secs(5), Node: 3, Holder: ""}}); err != nil {
			t.Fatal(err)
		}
		if err := rec.Services([]ServiceHolding{{At: secs(2), Service: "web", Nodes: 3, Pending: 1}},
			[]ScaleEvent{{At: secs(3), Service: "web", Action: "up", From: 1, To: 3, Load: math.Inf(1), Waited: secs(1), Nodes: []string{"n1", "n2"}}},
			[]ServiceAccount{{Service: "web", MinNodes: 1, MaxNodes: 4, NodeSeconds: 12.5, Ups: 1}}); err != nil {
			t.Fatal(err)
		}
		if err := rec.Close(FinalInfo{WallSeconds: 1}); err != nil {
			t.Fatal(err)
		}
		mem.AssertSize(t, 0)
	}
	withoutChecksums(t)
	direct, lib := t.TempDir(), t.TempDir()
	record(direct)
	libraryParquetOnly = true
	defer func() { libraryParquetOnly = false }()
	record(lib)
	names := files(t, direct)
	if len(names) < 8 {
		t.Fatalf("only %v written", names)
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ".parquet") {
			continue
		}
		if !bytes.Equal(readFile(t, direct, name), readFile(t, lib, name)) {
			t.Errorf("%s differs between the direct and the library writer", name)
		}
	}
}

// FuzzParquetWriterSameBytes writes random records of a random schema
// through both writers: the files must be the same bytes. layout gives
// the columns, a byte each (type = b%5, nullable when b&8).
func FuzzParquetWriterSameBytes(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 8, 9, 10, 11, 12}, uint64(1), uint32(3000), uint8(4), uint16(12), true, uint8(1))
	f.Add([]byte{2, 10}, uint64(2), uint32(70_000), uint8(0), uint16(3), false, uint8(2))
	f.Add([]byte{11, 3}, uint64(3), uint32(9_001), uint8(1), uint16(0), false, uint8(1))
	f.Add([]byte{10}, uint64(4), uint32(600), uint8(3), uint16(5000), false, uint8(1))
	f.Add([]byte{8, 12}, uint64(5), uint32(0), uint8(2), uint16(1), true, uint8(3))
	f.Add([]byte("0"), uint64(24), uint32(3073), uint8(1), uint16(12), false, uint8(9)) // found by fuzzing
	types := []arrow.DataType{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int64,
		arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean, arrow.FixedWidthTypes.Timestamp_us}
	f.Fuzz(func(t *testing.T, layout []byte, seed uint64, rows uint32, nullEvery uint8, strLen uint16, special bool, records uint8) {
		if len(layout) == 0 || len(layout) > 12 {
			return
		}
		var fields []arrow.Field
		for i, b := range layout {
			fields = append(fields, arrow.Field{Name: fmt.Sprint("c", i), Type: types[b%5], Nullable: b&8 != 0})
		}
		schema := arrow.NewSchema(fields, nil)
		r := rand.New(rand.NewPCG(seed, 7))
		var recs []arrow.Record
		for range records % 4 {
			sh := recordShape{rows: int(rows % 70_001), nullEvery: int(nullEvery % 16), strLen: int(strLen % 6000), special: special}
			rec := randomRecord(schema, r, sh)
			defer rec.Release()
			if seed%2 == 1 && rec.NumRows() > 2 { // arrays with an offset
				rec = rec.NewSlice(1, rec.NumRows()-1)
				defer rec.Release()
			}
			recs = append(recs, rec)
		}
		requireSameParquet(t, schema, recs)
	})
}
