package metrics

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// ColumnKind is the type of a sweep summary column.
type ColumnKind int

const (
	KindString ColumnKind = iota
	KindInt               // int64
	KindFloat             // float64
)

// summaryKinds are the types of a run summary's columns, read off the
// summary a Recorder computes on a throwaway one-node cluster, so they
// follow summaryCols as columns are added. The node's one resource has a
// sentinel name: a column naming it (utilization_<resource>) is a pattern
// for every resource.
var summaryKinds = sync.OnceValues(func() (kinds map[string]ColumnKind, err error) {
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "n", Capacity: []sim.Quantity{{Resource: sentinelResource, Amount: sim.Units(1)}}}})
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "schedsim-summary-kinds-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// Measuring, so that the optional jobs_measured is known too.
	r, err := NewRecorder(dir, c, Options{Measured: func(*sim.JobRun) bool { return true }})
	if err != nil {
		return nil, err
	}
	defer r.Abort()
	kinds = map[string]ColumnKind{}
	for _, col := range r.summaryCols(FinalInfo{}, 0) {
		switch col.kind {
		case arrow.INT64:
			kinds[col.name] = KindInt
		case arrow.FLOAT64:
			kinds[col.name] = KindFloat
		default:
			kinds[col.name] = KindString
		}
	}
	return kinds, nil
})

const sentinelResource = "res0sentinel"

// RunSummaryKind returns the type of a column of a run's summary and
// whether name is one of its (non-label) columns.
func RunSummaryKind(name string) (ColumnKind, bool) {
	kinds, err := summaryKinds()
	if err != nil {
		return KindString, false
	}
	if k, ok := kinds[name]; ok && !strings.Contains(name, sentinelResource) {
		return k, true
	}
	for pattern, k := range kinds {
		pre, post, ok := strings.Cut(pattern, sentinelResource)
		if ok && len(name) > len(pre)+len(post) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, post) {
			return k, true
		}
	}
	return KindString, false
}

// SweepColumn is one column of a sweep summary: its values as text, as a
// run's summary.csv holds them; "" is a null.
type SweepColumn struct {
	Name   string
	Kind   ColumnKind
	Values []string
}

// WriteSweepSummary writes a sweep summary as dir/summary.parquet and
// dir/summary.csv (renamed into place last), each atomically. Numbers are
// parsed from their text and printed back by the one float format of
// every CSV here, so the CSV of a summary built from run summaries keeps
// their text; the bytes depend only on the columns.
func WriteSweepSummary(dir string, cols []SweepColumn) error {
	rec, err := sweepRecord(cols)
	if err != nil {
		return err
	}
	defer rec.Release()
	if err := writeRecordFile(filepath.Join(dir, "summary.parquet"), FormatParquet, rec); err != nil {
		return err
	}
	return writeRecordFile(filepath.Join(dir, "summary.csv"), FormatCSV, rec)
}

// WriteSweepSummaryCSV writes only the CSV, at path (a shard's summary).
func WriteSweepSummaryCSV(path string, cols []SweepColumn) error {
	rec, err := sweepRecord(cols)
	if err != nil {
		return err
	}
	defer rec.Release()
	return writeRecordFile(path, FormatCSV, rec)
}

func writeRecordFile(path, format string, rec arrow.Record) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		var tw tableWriter
		var err error
		if format == FormatParquet {
			tw, err = newParquetWriter(rec.Schema(), w, memory.DefaultAllocator)
		} else {
			tw, err = newCSVWriter(rec.Schema(), w)
		}
		if err != nil {
			return err
		}
		if err := tw.write(rec); err != nil {
			tw.close()
			return err
		}
		return tw.close()
	})
}

// sweepRecord builds the one record of a sweep summary.
func sweepRecord(cols []SweepColumn) (arrow.Record, error) {
	fields := make([]arrow.Field, len(cols))
	rows := -1
	for i, c := range cols {
		if rows >= 0 && len(c.Values) != rows {
			return nil, fmt.Errorf("metrics: sweep summary: column %s has %d values, want %d", c.Name, len(c.Values), rows)
		}
		rows = len(c.Values)
		fields[i] = arrow.Field{Name: c.Name, Nullable: true, Type: arrow.BinaryTypes.String}
		switch c.Kind {
		case KindInt:
			fields[i].Type = arrow.PrimitiveTypes.Int64
		case KindFloat:
			fields[i].Type = arrow.PrimitiveTypes.Float64
		}
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer rb.Release()
	for i, c := range cols {
		for row, v := range c.Values {
			if v == "" {
				rb.Field(i).AppendNull()
				continue
			}
			var err error
			switch b := rb.Field(i).(type) {
			case *array.Int64Builder:
				var x int64
				x, err = strconv.ParseInt(v, 10, 64)
				b.Append(x)
			case *array.Float64Builder:
				var x float64
				x, err = strconv.ParseFloat(v, 64)
				b.Append(x)
			case *array.StringBuilder:
				b.Append(v)
			}
			if err != nil {
				return nil, fmt.Errorf("metrics: sweep summary: column %s, row %d: %q is not a number", c.Name, row+1, v)
			}
		}
	}
	return rb.NewRecord(), nil
}
