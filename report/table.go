package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"

	"github.com/schedsim/schedsim/metrics"
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

// readTable reads the columns spec names from dir/name.*, with the table
// reader of package metrics (one reader of schedsim's tables for every
// command): numeric columns as float64 with NaN for null, text columns as
// strings ("" for null; a number, a bool or a timestamp as text: the
// shortest decimal, true/false, RFC 3339).
func readTable(dir, name string, spec tableSpec) (*table, error) {
	path, _, err := findTable(dir, name)
	if err != nil {
		return nil, err
	}
	mt, err := metrics.ReadTable(dir, name, func(col string) bool { return spec.wantsNum(col) || spec.wantsText(col) })
	if err != nil {
		return nil, err
	}
	t := &table{num: columns{}, text: map[string][]string{}}
	t.register(mt.Names(), spec)
	for col := range t.text {
		t.text[col] = textColumn(mt, col)
	}
	for col := range t.num {
		if t.num[col], err = numColumn(mt, col); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
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

// numColumn is column col as float64, NaN where null. A text column (a
// csv column the jobs schema does not type) is parsed, NaN where it is
// not a number.
func numColumn(mt *metrics.Table, col string) ([]float64, error) {
	xs := make([]float64, mt.Len())
	for i := range xs {
		var v float64
		ok := true
		switch mt.Type(col) {
		case arrow.FLOAT64:
			v, ok = mt.Float(col, i)
		case arrow.INT64:
			var n int64
			n, ok = mt.Int(col, i)
			v = float64(n)
		case arrow.STRING:
			var err error
			v, err = strconv.ParseFloat(mt.Str(col, i), 64)
			ok = err == nil
		default:
			return nil, fmt.Errorf("column %q: type %s is not numeric", col, mt.Type(col))
		}
		if !ok {
			v = math.NaN()
		}
		xs[i] = v
	}
	return xs, nil
}

// textColumn is column col as text, "" where null.
func textColumn(mt *metrics.Table, col string) []string {
	xs := make([]string, mt.Len())
	for i := range xs {
		switch mt.Type(col) {
		case arrow.STRING:
			xs[i] = mt.Str(col, i)
		case arrow.FLOAT64:
			if v, ok := mt.Float(col, i); ok {
				xs[i] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		case arrow.INT64:
			if v, ok := mt.Int(col, i); ok {
				xs[i] = strconv.FormatInt(v, 10)
			}
		case arrow.BOOL:
			if v, ok := mt.Bool(col, i); ok {
				xs[i] = strconv.FormatBool(v)
			}
		case arrow.TIMESTAMP:
			if v, ok := mt.Time(col, i); ok {
				xs[i] = v.Format(time.RFC3339Nano)
			}
		}
	}
	return xs
}
