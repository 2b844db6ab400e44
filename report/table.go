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
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/traces/pqcheck"
)

// tableExts are the table formats a run can be written in, in the order
// they are looked for: a directory holding two (a re-run in another
// format) reads the binary one, which has exact types.
var tableExts = []string{"parquet", "arrow", "csv"}

// columns holds numeric columns by name; a null or unparsable cell is NaN,
// so callers filter with math.IsNaN as they would on a pandas frame.
type columns map[string][]float64

// tableSpec says which columns to read: num and text name the numeric and
// text columns a caller needs (a missing one is an error naming file and
// column); optional numeric columns are read when present (newer
// outputs), and optionalText text columns likewise; prefixes also take
// every numeric column whose name starts with one (the per-resource
// columns, whose names depend on the cluster).
type tableSpec struct {
	num, text, optional []string
	optionalText        []string
	prefixes            []string
}

// table is what readTable returns: numeric columns, text columns, and the
// names of the prefix-selected numeric columns in file order.
type table struct {
	num      columns
	text     map[string][]string
	prefixed []string
}

func (s tableSpec) wantsNum(name string) bool {
	return s.prefixed(name) || slices.Contains(s.num, name) || slices.Contains(s.optional, name)
}

func (s tableSpec) prefixed(name string) bool {
	for _, p := range s.prefixes {
		if len(name) > len(p) && strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (s tableSpec) wantsText(name string) bool {
	return slices.Contains(s.text, name) || slices.Contains(s.optionalText, name)
}

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

// readTable reads the columns spec names from dir/name.*.
func readTable(dir, name string, spec tableSpec) (*table, error) {
	path, ext, err := findTable(dir, name)
	if err != nil {
		return nil, err
	}
	t := &table{num: columns{}, text: map[string][]string{}}
	switch ext {
	case "csv":
		err = readCSV(path, spec, t)
	case "parquet":
		err = readParquet(path, spec, t)
	default:
		err = readIPC(path, spec, t)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, w := range spec.num {
		if _, ok := t.num[w]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, w)
		}
	}
	for _, w := range spec.text {
		if _, ok := t.text[w]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, w)
		}
	}
	return t, nil
}

// register notes which of the file's columns are read, in file order.
func (t *table) register(names []string, spec tableSpec) {
	for _, n := range names {
		if spec.wantsText(n) {
			t.text[n] = nil
			continue
		}
		if spec.wantsNum(n) {
			t.num[n] = nil
			if spec.prefixed(n) {
				t.prefixed = append(t.prefixed, n)
			}
		}
	}
}

func readCSV(path string, spec tableSpec, t *table) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	header = append([]string(nil), header...)
	t.register(header, spec)
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for i, h := range header {
			if _, ok := t.text[h]; ok {
				t.text[h] = append(t.text[h], rec[i])
			} else if _, ok := t.num[h]; ok {
				v, perr := strconv.ParseFloat(rec[i], 64)
				if perr != nil {
					v = math.NaN()
				}
				t.num[h] = append(t.num[h], v)
			}
		}
	}
}

func readParquet(path string, spec tableSpec, t *table) error {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return err
	}
	defer pf.Close()
	if err := pqcheck.CheckFile(path, pf.MetaData()); err != nil {
		return fmt.Errorf("corrupt Parquet file: %w", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	schema, err := fr.Schema()
	if err != nil {
		return err
	}
	var idx []int
	var names []string
	for i, f := range schema.Fields() {
		if spec.wantsNum(f.Name) || spec.wantsText(f.Name) {
			idx = append(idx, i)
			names = append(names, f.Name)
		}
	}
	t.register(names, spec)
	rr, err := fr.GetRecordReader(context.Background(), idx, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		if err := t.appendRecord(rr.Record()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func readIPC(path string, spec tableSpec, t *table) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		return err
	}
	defer r.Close()
	var names []string
	for _, fl := range r.Schema().Fields() {
		names = append(names, fl.Name)
	}
	t.register(names, spec)
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			return err
		}
		if err := t.appendRecord(rec); err != nil {
			return err
		}
	}
	return nil
}

// appendRecord appends the record's columns that t reads: numeric ones as
// float64, text ones as strings (a numeric column read as text is
// formatted, as a CSV would hold it).
func (t *table) appendRecord(rec arrow.Record) error {
	for i, f := range rec.Schema().Fields() {
		col := rec.Column(i)
		if xs, ok := t.text[f.Name]; ok {
			for j := 0; j < col.Len(); j++ {
				if col.IsNull(j) {
					xs = append(xs, "")
				} else {
					xs = append(xs, col.ValueStr(j))
				}
			}
			t.text[f.Name] = xs
			continue
		}
		xs, ok := t.num[f.Name]
		if !ok {
			continue
		}
		switch a := col.(type) {
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
		t.num[f.Name] = xs
	}
	return nil
}

func nullOr(null bool, v float64) float64 {
	if null {
		return math.NaN()
	}
	return v
}
