package report

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// tableExts are the table formats a run can be written in, in the order
// they are looked for: a directory holding two (a re-run in another
// format) reads the binary one, which has exact types.
var tableExts = []string{"parquet", "arrow", "csv"}

// columns holds numeric columns by name; a null or unparsable cell is NaN,
// so callers filter with math.IsNaN as they would on a pandas frame.
type columns map[string][]float64

// findTable returns the path of dir/name.<ext> for the first format
// present, or an error naming the directory and the missing table.
func findTable(dir, name string) (string, string, error) {
	for _, ext := range tableExts {
		p := filepath.Join(dir, name+"."+ext)
		if _, err := os.Stat(p); err == nil {
			return p, ext, nil
		}
	}
	return "", "", fmt.Errorf("%s is not a run directory: no %s.parquet, %s.arrow or %s.csv", dir, name, name, name)
}

// readTable reads the named numeric columns of dir/name.*; want lists the
// columns a caller needs (a missing one is an error naming file and
// column), prefix also takes every column whose name starts with it (the
// per-resource utilization columns, whose names depend on the cluster).
func readTable(dir, name string, want []string, prefix string) (columns, []string, error) {
	path, ext, err := findTable(dir, name)
	if err != nil {
		return nil, nil, err
	}
	var cols columns
	var names []string
	switch ext {
	case "csv":
		cols, names, err = readCSV(path, want, prefix)
	case "parquet":
		cols, names, err = readParquet(path, want, prefix)
	default:
		cols, names, err = readIPC(path, want, prefix)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, w := range want {
		if _, ok := cols[w]; !ok {
			return nil, nil, fmt.Errorf("%s: no column %q", path, w)
		}
	}
	return cols, names, nil
}

// selected reports whether a column is wanted, by name or prefix.
func selected(name string, want []string, prefix string) bool {
	if prefix != "" && len(name) > len(prefix) && name[:len(prefix)] == prefix {
		return true
	}
	for _, w := range want {
		if w == name {
			return true
		}
	}
	return false
}

func readCSV(path string, want []string, prefix string) (columns, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("header: %w", err)
	}
	header = append([]string(nil), header...)
	cols := columns{}
	var names []string
	var idx []int
	for i, h := range header {
		if selected(h, want, prefix) {
			idx = append(idx, i)
			names = append(names, h)
			cols[h] = nil
		}
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		for _, i := range idx {
			v, perr := strconv.ParseFloat(rec[i], 64)
			if perr != nil {
				v = math.NaN()
			}
			cols[header[i]] = append(cols[header[i]], v)
		}
	}
	return cols, names, nil
}

func readParquet(path string, want []string, prefix string) (columns, []string, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return nil, nil, err
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, nil, err
	}
	var idx []int
	for i, f := range schema.Fields() {
		if selected(f.Name, want, prefix) {
			idx = append(idx, i)
		}
	}
	rr, err := fr.GetRecordReader(context.Background(), idx, nil)
	if err != nil {
		return nil, nil, err
	}
	defer rr.Release()
	cols := columns{}
	names := fieldNames(rr.Schema(), cols)
	for rr.Next() {
		if err := appendRecord(cols, rr.Record()); err != nil {
			return nil, nil, err
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	return cols, names, nil
}

func readIPC(path string, want []string, prefix string) (columns, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cols := columns{}
	var names []string
	for _, fl := range r.Schema().Fields() {
		if selected(fl.Name, want, prefix) {
			names = append(names, fl.Name)
			cols[fl.Name] = nil
		}
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			return nil, nil, err
		}
		if err := appendRecord(cols, rec); err != nil {
			return nil, nil, err
		}
	}
	return cols, names, nil
}

// fieldNames registers the schema's fields in cols and returns their names
// in schema order.
func fieldNames(s *arrow.Schema, cols columns) []string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
		cols[f.Name] = nil
	}
	return names
}

// appendRecord appends the record's columns that cols holds, as float64.
func appendRecord(cols columns, rec arrow.Record) error {
	for i, f := range rec.Schema().Fields() {
		if _, ok := cols[f.Name]; !ok {
			continue
		}
		xs := cols[f.Name]
		switch a := rec.Column(i).(type) {
		case *array.Float64:
			for j := 0; j < a.Len(); j++ {
				xs = append(xs, nullOr(a.IsNull(j), a.Value(j)))
			}
		case *array.Int64:
			for j := 0; j < a.Len(); j++ {
				xs = append(xs, nullOr(a.IsNull(j), float64(a.Value(j))))
			}
		case *array.Int32:
			for j := 0; j < a.Len(); j++ {
				xs = append(xs, nullOr(a.IsNull(j), float64(a.Value(j))))
			}
		default:
			return fmt.Errorf("column %q: type %s is not numeric", f.Name, f.Type)
		}
		cols[f.Name] = xs
	}
	return nil
}

func nullOr(null bool, v float64) float64 {
	if null {
		return math.NaN()
	}
	return v
}
