package native

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/traces"
)

// batchRows is how many rows the Parquet reader decodes at a time: a
// batch's columns are Arrow arrays, so memory stays bounded whatever the
// row groups' size.
const batchRows = 8192

// parquetDecoder turns the rows of a Parquet trace into records. The
// column layout is checked once, when the file is opened; each batch
// binds its arrays to the columns (pqBatch), and each row is checked as
// the text readers check a record (pqrow.go).
type parquetDecoder struct {
	name    string
	cols    []pqColumn
	records pqarrow.RecordReader
	cur     arrow.Record
	batch   pqBatch
	row     int // next row of the batch
	base    int // rows of the file before the batch
	interner
}

// pqColumn is one top-level column of the file.
type pqColumn struct {
	name string
	f    field  // fRequest for a req_ column
	res  string // its resource
	// scale is a req_ column's decimal scale (0–3): its values are
	// multiplied by 10^(3−scale) to make thousandths.
	scale int32
}

// OpenParquet opens a Parquet trace (see the package documentation for its
// schema). Open calls it for .parquet files.
func OpenParquet(path string, opt traces.Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewParquetReader(f, path, opt)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closers = append(r.closers, f)
	return r, nil
}

// NewParquetReader reads a Parquet trace from src; name is the file name
// used in errors. The footer, the schema version and the column types
// are checked here; rows are read by Next, a batch at a time.
func NewParquetReader(src parquet.ReaderAtSeeker, name string, opt traces.Options) (r *Reader, err error) {
	// The Parquet library can panic on a corrupt file; that is a bad
	// input, not a crash.
	defer recoverCorrupt(name, &err)
	pf, err := file.NewParquetReader(src)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", name, err)
	}
	meta, err := readEmbedded(name, pf.MetaData().KeyValueMetadata())
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d := &parquetDecoder{name: name}
	if err := d.checkSchema(schema); err != nil {
		return nil, err
	}
	if pf.NumRows() > 0 {
		if d.records, err = fr.GetRecordReader(context.Background(), nil, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return &Reader{name: name, opt: opt, decode: d.next, meta: meta, closers: []io.Closer{d}}, nil
}

// recoverCorrupt turns a panic of the Parquet library into an error.
func recoverCorrupt(name string, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: corrupt Parquet file: %v", name, p)
	}
}

// Close releases the batch and the record reader.
func (d *parquetDecoder) Close() error {
	if d.records != nil {
		d.records.Release()
		d.records = nil
	}
	return nil
}

// schemaError is a column that does not fit the schema; it stops the
// reader (an unknown or mistyped column would hide every row's value).
func (d *parquetDecoder) schemaError(col string, format string, args ...any) error {
	return &traces.ParseError{File: d.name, Field: col, Err: fmt.Errorf(format, args...)}
}

// checkSchema maps the file's columns to fields and checks their types.
func (d *parquetDecoder) checkSchema(s *arrow.Schema) error {
	seen := map[string]bool{}
	for _, fl := range s.Fields() {
		name := fl.Name
		if seen[name] {
			return d.schemaError(name, "column given twice")
		}
		seen[name] = true
		if res, ok := cutReq(name); ok {
			dt, ok := fl.Type.(*arrow.Decimal128Type)
			if !ok || dt.Scale < 0 || dt.Scale > 3 {
				return d.schemaError(name, "want DECIMAL(18, 3) (a decimal of scale 0 to 3), got %s", fl.Type)
			}
			d.cols = append(d.cols, pqColumn{name: name, f: fRequest, res: res, scale: dt.Scale})
			continue
		}
		f, ok := pqField(name)
		if !ok {
			return d.schemaError(name, "unknown column")
		}
		if err := checkType(f, fl.Type); err != nil {
			return d.schemaError(name, "%v", err)
		}
		d.cols = append(d.cols, pqColumn{name: name, f: f})
	}
	for _, f := range [...]field{fID, fSubmit, fRuntime} {
		if !seen[pqName(f)] {
			return d.schemaError(pqName(f), "required column missing")
		}
	}
	return nil
}

// checkType accepts the type a writer gives f, with any nullability and
// element names (other writers name list elements "item" or "element").
func checkType(f field, t arrow.DataType) error {
	want, _ := pqType(f)
	if sameShape(want, t) {
		return nil
	}
	return fmt.Errorf("want %s, got %s", want, t)
}

// sameShape compares types by kind, recursively, ignoring names of list
// elements and nullability; struct members must be known ones, in any
// order, each of its type.
func sameShape(want, got arrow.DataType) bool {
	if want.ID() != got.ID() {
		return false
	}
	switch w := want.(type) {
	case *arrow.ListType:
		return sameShape(w.Elem(), got.(*arrow.ListType).Elem())
	case *arrow.MapType:
		g := got.(*arrow.MapType)
		return sameShape(w.KeyType(), g.KeyType()) && sameShape(w.ItemType(), g.ItemType())
	case *arrow.StructType:
		for _, gf := range got.(*arrow.StructType).Fields() {
			i, ok := w.FieldIdx(gf.Name)
			if !ok || !sameShape(w.Field(i).Type, gf.Type) {
				return false
			}
		}
	}
	return true
}

// next decodes the next row into rec; io.EOF after the last.
func (d *parquetDecoder) next(rec *record) (line int, err error) {
	defer recoverCorrupt(d.name, &err)
	for d.cur == nil || d.row >= int(d.cur.NumRows()) {
		if err := d.nextBatch(); err != nil {
			return 0, err
		}
	}
	i := d.row
	d.row++
	line = d.base + i + 1
	if f, path, err := d.decodeRow(rec, i); err != nil {
		return line, d.rowError(line, f, path, err)
	}
	return line, nil
}

// nextBatch reads the next batch of rows; io.EOF after the last.
func (d *parquetDecoder) nextBatch() error {
	if d.cur != nil {
		d.base += int(d.cur.NumRows())
		d.cur = nil
	}
	if d.records == nil || !d.records.Next() {
		err := io.EOF
		if d.records != nil && d.records.Err() != nil && !errors.Is(d.records.Err(), io.EOF) {
			err = fatalError{&traces.ParseError{File: d.name, Line: d.base + 1,
				Err: fmt.Errorf("reading the Parquet file: %w", d.records.Err())}}
		}
		d.Close()
		return err
	}
	d.cur = d.records.Record()
	d.row = 0
	n := d.cur.NumRows()
	for i, c := range d.cur.Columns() {
		if int64(c.Len()) != n {
			return fatalError{&traces.ParseError{File: d.name, Line: d.base + 1, Field: d.cols[i].name,
				Err: fmt.Errorf("column has %d rows in this batch, the first column %d", c.Len(), n)}}
		}
	}
	return d.batch.bind(d.cur, d.cols)
}

// rowError names the row and the column (with the place inside a
// structured value, when there is one).
func (d *parquetDecoder) rowError(line int, f string, path string, err error) error {
	pe := &traces.ParseError{File: d.name, Line: line, Field: f + path, Err: err}
	var te *traitError
	if errors.As(err, &te) {
		pe.Field, pe.Err = te.path, te.err
		if te.fatal {
			return fatalError{pe}
		}
	}
	return pe
}
