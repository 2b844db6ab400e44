package metrics

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/traces/pqcheck"
)

// Table is a run's table read back from any of the formats the Recorder
// writes, typed as written: the jobs table of a run in csv has the same
// values as in parquet. Exporters (batsim.go) read runs with it.
type Table struct {
	path  string
	names []string
	cols  map[string]*column
	rows  int
	meta  map[string]string // the file's metadata (Parquet, Arrow); nil for csv
	// keep says which columns to read (nil: all); the others are not
	// decoded (Parquet) or dropped as they are met.
	keep func(name string) bool
}

// column is one column, in the slice of its type; null[i] marks a null.
type column struct {
	typ  arrow.Type // FLOAT64, INT64, STRING, TIMESTAMP (microseconds) or BOOL
	f    []float64
	i    []int64 // INT64 and TIMESTAMP
	s    []string
	b    []bool
	null []bool
}

// ReadJobs reads dir's jobs table: jobs.parquet, jobs.arrow or jobs.csv,
// the first found. A csv's columns are typed by the jobs schema (a column
// the schema does not know is text).
func ReadJobs(dir string) (*Table, error) {
	return ReadTable(dir, "jobs", nil)
}

// ReadTable reads the columns keep accepts (nil: every column) of dir's
// table name (jobs, timeseries, nodes, tenants…): name.parquet,
// name.arrow or name.csv, the first found. A csv's columns are typed by
// the jobs schema where it names them, else read as text.
func ReadTable(dir, name string, keep func(string) bool) (*Table, error) {
	var fields []arrow.Field
	if name == "jobs" {
		fields = append(slices.Concat(jobsFields, jobsCalendarFields), jobsMeasuredField)
	}
	return readTableFile(dir, name, fields, keep)
}

func readTableFile(dir, name string, fields []arrow.Field, keep func(string) bool) (*Table, error) {
	if keep == nil {
		keep = func(string) bool { return true }
	}
	for _, ext := range []string{FormatParquet, FormatArrow, FormatCSV} {
		path := filepath.Join(dir, name+"."+ext)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t := &Table{path: path, cols: map[string]*column{}, keep: keep}
		var err error
		switch ext {
		case FormatParquet:
			err = t.readParquet()
		case FormatArrow:
			err = t.readIPC()
		default:
			err = t.readCSV(fields)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return t, nil
	}
	return nil, fmt.Errorf("%s has no %s table (%s.parquet, %s.arrow or %s.csv)", dir, name, name, name, name)
}

// Path is the file read.
func (t *Table) Path() string { return t.path }

// Len is the number of rows.
func (t *Table) Len() int { return t.rows }

// Names are the columns in file order.
func (t *Table) Names() []string { return t.names }

// Has reports whether the table has column name.
func (t *Table) Has(name string) bool { return t.cols[name] != nil }

// Metadata returns a key of the file's metadata (MetaEpoch…); "" when
// absent, and always for csv, which has none.
func (t *Table) Metadata(key string) string { return t.meta[key] }

// Type is column name's type: FLOAT64, INT64, STRING, TIMESTAMP
// (microseconds, UTC) or BOOL; NULL when the table has no such column.
func (t *Table) Type(name string) arrow.Type {
	if c := t.cols[name]; c != nil {
		return c.typ
	}
	return arrow.NULL
}

// hasType reports whether column name exists with type typ.
func (t *Table) hasType(name string, typ arrow.Type) bool {
	c := t.cols[name]
	return c != nil && c.typ == typ
}

// col returns column name, which must exist and be of type typ (a program
// error otherwise: callers check Has and the schema first).
func (t *Table) col(name string, typ arrow.Type) *column {
	c := t.cols[name]
	if c == nil || c.typ != typ {
		panic(fmt.Sprintf("metrics: %s: no %s column %q", t.path, typ, name))
	}
	return c
}

// Float returns row i of a float column and false when it is null.
func (t *Table) Float(name string, i int) (float64, bool) {
	c := t.col(name, arrow.FLOAT64)
	return c.f[i], !c.null[i]
}

// Int returns row i of an integer column and false when it is null.
func (t *Table) Int(name string, i int) (int64, bool) {
	c := t.col(name, arrow.INT64)
	return c.i[i], !c.null[i]
}

// Str returns row i of a text column.
func (t *Table) Str(name string, i int) string { return t.col(name, arrow.STRING).s[i] }

// Bool returns row i of a boolean column and false when it is null.
func (t *Table) Bool(name string, i int) (v, ok bool) {
	c := t.col(name, arrow.BOOL)
	return c.b[i], !c.null[i]
}

// Time returns row i of a timestamp column, in UTC, and false when it is
// null.
func (t *Table) Time(name string, i int) (time.Time, bool) {
	c := t.col(name, arrow.TIMESTAMP)
	return time.UnixMicro(c.i[i]).UTC(), !c.null[i]
}

func (t *Table) readParquet() error {
	f, err := os.Open(t.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := pqcheck.CheckFooter(f, st.Size()); err != nil {
		return fmt.Errorf("corrupt Parquet file: %w", err)
	}
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return err
	}
	if err := pqcheck.Check(f, st.Size(), pf.MetaData()); err != nil {
		return fmt.Errorf("corrupt Parquet file: %w", err)
	}
	t.meta = map[string]string{}
	kv := pf.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		t.meta[k] = kv.Values()[i]
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: rowsPerRecord}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	schema, err := fr.Schema()
	if err != nil {
		return err
	}
	var kept []int // only the columns kept are decoded
	for i, f := range schema.Fields() {
		if t.keep(f.Name) {
			kept = append(kept, i)
		}
	}
	if err := t.declare(schema); err != nil {
		return err
	}
	if len(kept) == 0 {
		return nil
	}
	rr, err := fr.GetRecordReader(context.Background(), kept, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		t.appendRecord(rr.Record())
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func (t *Table) readIPC() error {
	f, err := os.Open(t.path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		return err
	}
	defer r.Close()
	t.meta = map[string]string{}
	md := r.Schema().Metadata()
	for i, k := range md.Keys() {
		t.meta[k] = md.Values()[i]
	}
	if err := t.declare(r.Schema()); err != nil {
		return err
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			return err
		}
		t.appendRecord(rec)
	}
	return nil
}

// declare makes a column per field of schema that t keeps.
func (t *Table) declare(schema *arrow.Schema) error {
	for _, f := range schema.Fields() {
		if !t.keep(f.Name) {
			continue
		}
		switch f.Type.ID() {
		case arrow.FLOAT64, arrow.INT64, arrow.STRING, arrow.TIMESTAMP, arrow.BOOL:
		default:
			return fmt.Errorf("column %s has unexpected type %s", f.Name, f.Type)
		}
		t.names = append(t.names, f.Name)
		t.cols[f.Name] = &column{typ: f.Type.ID()}
	}
	return nil
}

func (t *Table) appendRecord(rec arrow.Record) {
	for k, f := range rec.Schema().Fields() {
		c := t.cols[f.Name]
		if c == nil {
			continue // not kept
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			null := rec.Column(k).IsNull(i)
			c.null = append(c.null, null)
			switch a := rec.Column(k).(type) {
			case *array.Float64:
				c.f = append(c.f, a.Value(i))
			case *array.Int64:
				c.i = append(c.i, a.Value(i))
			case *array.Timestamp:
				c.i = append(c.i, int64(a.Value(i)))
			case *array.String:
				c.s = append(c.s, a.Value(i))
			case *array.Boolean:
				c.b = append(c.b, a.Value(i))
			}
		}
	}
	t.rows += int(rec.NumRows())
}

// readCSV types each column by the field of the same name; "" is null in
// a numeric or timestamp column.
func (t *Table) readCSV(fields []arrow.Field) error {
	f, err := os.Open(t.path)
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
	header = slices.Clone(header) // the reader reuses its record
	cols := make([]*column, len(header))
	for k, name := range header {
		if !t.keep(name) {
			continue
		}
		typ := arrow.STRING
		if i := slices.IndexFunc(fields, func(f arrow.Field) bool { return f.Name == name }); i >= 0 {
			typ = fields[i].Type.ID()
		}
		cols[k] = &column{typ: typ}
		t.names = append(t.names, name)
		t.cols[name] = cols[k]
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for k, v := range rec {
			if cols[k] == nil {
				continue // not kept
			}
			if err := cols[k].appendText(v); err != nil {
				return fmt.Errorf("line %d: column %s: %w", line, header[k], err)
			}
		}
		t.rows++
	}
}

// appendText appends a csv cell, parsed as the column's type.
func (c *column) appendText(v string) error {
	null := v == "" && c.typ != arrow.STRING
	c.null = append(c.null, null)
	var err error
	switch c.typ {
	case arrow.STRING:
		c.s = append(c.s, v)
	case arrow.FLOAT64:
		var x float64
		if !null {
			x, err = strconv.ParseFloat(v, 64)
		}
		c.f = append(c.f, x)
	case arrow.INT64:
		var x int64
		if !null {
			x, err = strconv.ParseInt(v, 10, 64)
		}
		c.i = append(c.i, x)
	case arrow.BOOL:
		var x bool
		if !null {
			x, err = strconv.ParseBool(v)
		}
		c.b = append(c.b, x)
	case arrow.TIMESTAMP:
		var us int64
		if !null {
			var at time.Time
			at, err = time.Parse(time.RFC3339Nano, v)
			us = at.UnixMicro()
		}
		c.i = append(c.i, us)
	}
	return err
}
