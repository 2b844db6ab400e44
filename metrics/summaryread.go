package metrics

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/apache/arrow/go/v17/arrow"

	"github.com/schedsim/schedsim/traces"
)

// SummaryTable is a summary as text: its columns in file order and each
// row's cells as summary.csv writes them ("" is a null). A run's summary
// has one row; a sweep's (or tune's) one row a run (or profile).
type SummaryTable struct {
	Path  string // the file read
	Names []string
	Rows  [][]string
}

// SummaryRow is one row of a summary: a run's summary, or a row of a
// sweep's. The Recorder gives the row it wrote (Recorder.Summary).
type SummaryRow struct {
	Names  []string
	Values []string // as summary.csv writes them; "" is a null
}

// Row is row i.
func (t *SummaryTable) Row(i int) SummaryRow { return SummaryRow{Names: t.Names, Values: t.Rows[i]} }

// Column is the index of column name, -1 when the table has none.
func (t *SummaryTable) Column(name string) int { return slices.Index(t.Names, name) }

// Has reports whether the row has column name.
func (r SummaryRow) Has(name string) bool { return slices.Contains(r.Names, name) }

// Text is column name's cell as written: "" when null or absent.
func (r SummaryRow) Text(name string) string {
	if i := slices.Index(r.Names, name); i >= 0 {
		return r.Values[i]
	}
	return ""
}

// Float is column name's value: NaN when null, absent or not a number (a
// statistic over no jobs is null).
func (r SummaryRow) Float(name string) float64 {
	v, err := strconv.ParseFloat(r.Text(name), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// Map is the row as column name → cell.
func (r SummaryRow) Map() map[string]string {
	m := make(map[string]string, len(r.Names))
	for i, name := range r.Names {
		m[name] = r.Values[i]
	}
	return m
}

// ReadSummary reads dir's summary: summary.csv, which every run, sweep and
// tune writes (a replay last, so its presence marks a complete run), else
// summary.parquet, whose cells it prints as summary.csv would. The error
// wraps fs.ErrNotExist when dir has neither.
func ReadSummary(dir string) (*SummaryTable, error) {
	path := filepath.Join(dir, "summary.csv")
	t, err := readSummaryCSV(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return t, err
	}
	pq := filepath.Join(dir, "summary."+FormatParquet)
	if _, perr := os.Stat(pq); perr != nil {
		return nil, err
	}
	return readSummaryTable(dir, pq)
}

// ReadRunSummary reads a run directory's summary, which has one row.
func ReadRunSummary(dir string) (SummaryRow, error) {
	t, err := ReadSummary(dir)
	if err != nil {
		return SummaryRow{}, err
	}
	if len(t.Rows) != 1 || slices.Contains(t.Names, "") {
		return SummaryRow{}, fmt.Errorf("%s: want a header and one row, got %d lines", t.Path, len(t.Rows)+1)
	}
	return t.Row(0), nil
}

// ReadSummaryCSV reads a run's summary.csv at path into column name →
// cell, for tests and scripts.
func ReadSummaryCSV(path string) (map[string]string, error) {
	t, err := readSummaryCSV(path)
	if err != nil {
		return nil, err
	}
	if len(t.Rows) != 1 {
		return nil, fmt.Errorf("%s: want a header and one row, got %d lines", path, len(t.Rows)+1)
	}
	return t.Row(0).Map(), nil
}

func readSummaryCSV(path string) (*SummaryTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := traces.NewCSVReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty, not even a header", path)
	}
	return &SummaryTable{Path: path, Names: rows[0], Rows: rows[1:]}, nil
}

// readSummaryTable reads a summary written as a table (Parquet) into text.
func readSummaryTable(dir, path string) (*SummaryTable, error) {
	t, err := readTableFile(dir, "summary", nil, nil)
	if err != nil {
		return nil, err
	}
	s := &SummaryTable{Path: path, Names: t.Names(), Rows: make([][]string, t.Len())}
	for i := range s.Rows {
		row := make([]string, len(s.Names))
		for k, name := range s.Names {
			row[k] = t.cellText(name, i)
		}
		s.Rows[i] = row
	}
	return s, nil
}

// cellText prints row i of column name as the CSV writer does.
func (t *Table) cellText(name string, i int) string {
	c := t.cols[name]
	if c.null[i] {
		return ""
	}
	switch c.typ {
	case arrow.FLOAT64:
		return string(appendFloat(nil, c.f[i]))
	case arrow.INT64:
		return strconv.FormatInt(c.i[i], 10)
	case arrow.TIMESTAMP:
		return string(appendTimestamp(nil, c.i[i]))
	case arrow.BOOL:
		return strconv.FormatBool(c.b[i])
	}
	return c.s[i]
}
