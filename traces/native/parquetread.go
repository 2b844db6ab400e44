package native

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/pqcheck"
)

// batchRows is how many rows the Parquet reader decodes at a time, so
// that its memory stays bounded whatever the row groups' size.
const batchRows = 8192

// parquetDecoder turns the rows of a Parquet trace into records. The
// column layout is checked once, when the file is opened. Rows are read
// row group by row group with the library's column readers: the flat
// columns in chunks of at most batchRows (pqflat.go), the nested ones
// (traits, depends_on) a row group at a time (pqnested.go); each row is
// then checked as the text readers check a record (pqrow.go).
type parquetDecoder struct {
	name   string
	pf     *file.Reader
	cols   []pqColumn
	flat   []*flatCol
	nested []*nestedField
	batch  pqBatch
	rg     int // next row group
	rgRow  int // row of the row group where the chunk starts
	left   int // rows of the current row group not yet read
	n      int // rows in the chunk
	row    int // next row of the chunk
	base   int // rows of the file before the chunk
	done   bool
	interner
	reqKey    []byte                    // scratch: a row's requirements
	reqShapes map[string][]sim.Quantity // requirement vectors seen, shared
	// The last row's requirements, which the next rows often repeat.
	lastReqKey []byte
	lastReq    []sim.Quantity
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
	defer recoverCorrupt(name, &err, false)
	size, err := fileSize(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	corrupt := func(err error) error {
		return &traces.ParseError{File: name, Err: fmt.Errorf("corrupt Parquet file: %w", err)}
	}
	if err := pqcheck.CheckFooter(src, size); err != nil {
		return nil, corrupt(err)
	}
	pf, err := file.NewParquetReader(src)
	if err != nil {
		return nil, &traces.ParseError{File: name, Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	if err := checkChunks(size, pf); err != nil {
		return nil, corrupt(err)
	}
	if err := pqcheck.Check(src, size, pf.MetaData()); err != nil {
		return nil, corrupt(err)
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
	d := &parquetDecoder{name: name, pf: pf}
	if err := d.checkSchema(schema); err != nil {
		return nil, err
	}
	if err := d.columnReaders(schema); err != nil {
		return nil, err
	}
	traitless, noDeps := true, true
	for _, c := range d.cols {
		traitless = traitless && (c.f < firstTrait || c.f == fDependsOn)
		noDeps = noDeps && c.f != fDependsOn
	}
	return &Reader{name: name, opt: opt, decode: d.next, meta: meta, epoch: meta.Epoch, zone: meta.TimeZone,
		traitless: traitless, noDeps: noDeps, closers: []io.Closer{d}}, nil
}

// checkChunks checks that every column chunk lies inside the file and
// holds as many values as its row group has rows: the library checks the
// first only for files of old writers (it allocates whatever length a
// chunk claims), and the second not at all.
func checkChunks(size int64, pf *file.Reader) error {
	md := pf.MetaData()
	for g := range pf.NumRowGroups() {
		rg := md.RowGroup(g)
		if rg.NumRows() < 0 {
			return fmt.Errorf("row group %d has %d rows", g, rg.NumRows())
		}
		for c := range rg.NumColumns() {
			col, err := rg.ColumnChunk(c)
			if err != nil {
				return err
			}
			start, length := col.DataPageOffset(), col.TotalCompressedSize()
			if col.HasDictionaryPage() && col.DictionaryPageOffset() > 0 && col.DictionaryPageOffset() < start {
				start = col.DictionaryPageOffset()
			}
			if start < 0 || length < 0 || start > size || length > size-start {
				return fmt.Errorf("row group %d, column %d: chunk at %d of %d bytes, in a file of %d bytes", g, c, start, length, size)
			}
			// A flat column has one value (or null) a row, a nested one
			// at least one level a row.
			flat := md.Schema.Column(c).MaxRepetitionLevel() == 0
			if n := col.NumValues(); n < rg.NumRows() || (flat && n != rg.NumRows()) {
				return fmt.Errorf("row group %d, column %d: %d values for %d rows", g, c, n, rg.NumRows())
			}
		}
	}
	return nil
}

// fileSize is src's size, leaving it at its start.
func fileSize(src io.Seeker) (int64, error) {
	size, err := src.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, err
	}
	_, err = src.Seek(0, io.SeekStart)
	return size, err
}

// recoverCorrupt turns a panic of the Parquet or Arrow library, which a
// corrupt file can cause (Snappy data that does not decompress, say),
// into a *traces.ParseError, the error of every other bad input; fatal
// wraps it so that it stops the reader in lenient mode too, as the
// library's state after a panic cannot be trusted. A panic anywhere else
// is a bug of this package and goes on (the fuzz target would find it).
func recoverCorrupt(name string, err *error, fatal bool) {
	p := recover()
	if p == nil {
		return
	}
	if !panickedInLibrary() {
		panic(p)
	}
	pe := &traces.ParseError{File: name, Err: fmt.Errorf("corrupt Parquet file: %v", p)}
	if fatal {
		*err = fatalError{pe}
		return
	}
	*err = pe
}

// panickedInLibrary reports whether the function that panicked, the
// first frame below the runtime's, is in the Arrow module.
func panickedInLibrary() bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return strings.HasPrefix(f.Function, "github.com/apache/arrow/")
		}
		if !more {
			return false
		}
	}
}

// columnReaders maps each column to its Parquet leaves.
func (d *parquetDecoder) columnReaders(s *arrow.Schema) error {
	leaves := d.pf.MetaData().Schema
	for i, c := range d.cols {
		if _, nested := s.Field(i).Type.(arrow.NestedType); nested {
			n, err := newNestedField(c.name, c.f, leaves)
			if err != nil {
				return d.schemaError(c.name, "%v", err)
			}
			d.nested = append(d.nested, n)
			continue
		}
		fc := &flatCol{pqColumn: c, leaf: -1}
		for l := range leaves.NumColumns() {
			if col := leaves.Column(l); len(col.ColumnPath()) == 1 && col.ColumnPath()[0] == c.name {
				fc.leaf, fc.maxDef = l, col.MaxDefinitionLevel()
				if !physicalOK(c.f, col.PhysicalType()) {
					return d.schemaError(c.name, "physical type %s is not supported", col.PhysicalType())
				}
			}
		}
		if fc.leaf < 0 || fc.maxDef > 1 {
			return d.schemaError(c.name, "not a top-level column of the Parquet schema")
		}
		d.flat = append(d.flat, fc)
	}
	return nil
}

// physicalOK reports whether flatCol reads a flat column of field f
// stored as t.
func physicalOK(f field, t parquet.Type) bool {
	switch {
	case f == fRequest:
		return t == parquet.Types.Int64 || t == parquet.Types.Int32 || t == parquet.Types.FixedLenByteArray
	case f == fGang:
		return t == parquet.Types.Boolean
	case f.kind() == kNumber:
		return t == parquet.Types.Int64
	}
	return t == parquet.Types.ByteArray
}

// Close drops the row group's data.
func (d *parquetDecoder) Close() error {
	d.flat, d.nested, d.batch = nil, nil, pqBatch{}
	d.done = true
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
	defer recoverCorrupt(d.name, &err, true)
	for d.row >= d.n {
		if err := d.nextChunk(); err != nil {
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

// nextChunk reads the next rows of the current row group, or of the
// next one; io.EOF after the last.
func (d *parquetDecoder) nextChunk() error {
	d.base += d.n
	d.rgRow += d.n
	d.row, d.n = 0, 0
	for d.left == 0 {
		if d.done || d.rg >= d.pf.NumRowGroups() {
			d.done = true
			d.Close()
			return io.EOF
		}
		rg := d.pf.RowGroup(d.rg)
		d.rg++
		d.left, d.rgRow = int(rg.NumRows()), 0
		for _, c := range d.flat {
			if err := c.start(rg); err != nil {
				return d.readError(c.name, err)
			}
		}
		for _, n := range d.nested {
			if err := n.load(rg, d.left); err != nil {
				return d.readError(n.name, err)
			}
		}
	}
	k := min(d.left, batchRows)
	for _, c := range d.flat {
		if err := c.read(k); err != nil {
			return d.readError(c.name, err)
		}
	}
	d.left -= k
	d.n = k
	d.batch.bind(d.flat, d.nested)
	return nil
}

// readError is a column the library cannot read: the file is corrupt,
// which stops the reader in both modes.
func (d *parquetDecoder) readError(col string, err error) error {
	d.done, d.left, d.n = true, 0, 0
	return fatalError{&traces.ParseError{File: d.name, Line: d.base + 1, Field: col,
		Err: fmt.Errorf("reading the Parquet file (row group %d): %w", d.rg, err)}}
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
