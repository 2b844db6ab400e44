package metrics

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// TestColumnsMatchBuilders checks that records made in place write the
// same bytes as records made with Arrow builders, in every format: nulls
// (their bitmap's padding included), an all-empty string column (no
// Parquet min/max) and row counts around byte and 64-byte boundaries.
func TestColumnsMatchBuilders(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "empty", Type: arrow.BinaryTypes.String},
		{Name: "dense", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "maybe", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "at", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true},
	}, nil)
	for _, rows := range []int{1, 7, 8, 9, 511, 512, 513, 1000} {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		x, dense := newFloatColumn(rows), newFloatColumn(rows)
		n := make([]int64, rows)
		s, empty := newStringColumn(rows, 0), newStringColumn(rows, 0)
		maybe, at := newIntColumn(arrow.PrimitiveTypes.Int64, rows), newIntColumn(arrow.FixedWidthTypes.Timestamp_us, rows)
		for i := range rows {
			v := float64(i) / 3
			if i%5 == 2 {
				rb.Field(0).(*array.Float64Builder).AppendNull()
				x.setNull(i)
			} else {
				rb.Field(0).(*array.Float64Builder).Append(v)
				x.vals[i] = v
			}
			rb.Field(1).(*array.Int64Builder).Append(int64(i * i))
			n[i] = int64(i * i)
			str := []byte("job-" + string(rune('a'+i%26)))
			rb.Field(2).(*array.StringBuilder).BinaryBuilder.Append(str)
			s.add(str)
			rb.Field(3).(*array.StringBuilder).Append("")
			empty.addString("")
			rb.Field(4).(*array.Float64Builder).Append(v)
			dense.vals[i] = v
			if i%3 == 1 {
				rb.Field(5).(*array.Int64Builder).AppendNull()
				maybe.setNull(i)
			} else {
				rb.Field(5).(*array.Int64Builder).Append(int64(-i))
				maybe.vals[i] = int64(-i)
			}
			// Timestamps are null in the first rows only (jobs still queued
			// come last, but a record may hold only them).
			if i < 3 {
				rb.Field(6).(*array.TimestampBuilder).AppendNull()
				at.setNull(i)
			} else {
				us := int64(843480031_000000) + int64(i)*1_500_000
				rb.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(us))
				at.vals[i] = us
			}
		}
		want := rb.NewRecord()
		got := newRecord(schema, []arrow.Array{x.array(), intArray(n), s.array(), empty.array(), dense.array(),
			maybe.array(), at.array()}, rows)
		if !array.RecordEqual(want, got) {
			t.Fatalf("%d rows: records differ", rows)
		}
		for _, format := range []string{FormatParquet, FormatArrow, FormatCSV} {
			if a, b := encodeRecord(t, format, want), encodeRecord(t, format, got); !bytes.Equal(a, b) {
				t.Errorf("%d rows, %s: the bytes differ (%d and %d bytes)", rows, format, len(a), len(b))
			}
		}
	}
}

func encodeRecord(t *testing.T, format string, rec arrow.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	sw := &seekWriter{w: bufio.NewWriter(&buf)}
	tw, err := newTableWriter(format, rec.Schema(), sw, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.write(rec); err != nil {
		t.Fatal(err)
	}
	if err := tw.close(); err != nil {
		t.Fatal(err)
	}
	if err := sw.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
