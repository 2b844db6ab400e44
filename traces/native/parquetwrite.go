package native

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/decimal128"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/schedsim/schedsim/sim"
)

// rowGroupRows is the number of jobs per row group: the writer holds one
// row group in memory, and the reader decodes one at a time.
const rowGroupRows = 64 << 10

// ParquetWriter writes jobs as a Parquet trace, one row group of
// rowGroupRows jobs at a time, with the columns it was made with. The
// bytes depend only on the jobs, the columns and the Embedded metadata.
type ParquetWriter struct {
	fw   *pqarrow.FileWriter
	rb   *array.RecordBuilder
	cols Columns
	// builders of the current row group, by field; nil when the column
	// is not written.
	b       [numFields]array.Builder
	req     []*array.Decimal128Builder // by position in cols.Resources
	amounts []reqAmount                // the current job's, by position
	rows    int
	err     error
}

// NewParquetWriter starts a Parquet trace on w with the given columns and
// metadata (nil for none). Call Close to write the footer; w is not closed.
func NewParquetWriter(w io.Writer, cols Columns, meta *Embedded) (*ParquetWriter, error) {
	if meta == nil {
		meta = &Embedded{}
	}
	kv, err := meta.keyValues()
	if err != nil {
		return nil, err
	}
	schema := parquetSchema(&cols)
	mem := memory.DefaultAllocator
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithStoreDecimalAsInteger(true),
		// Dictionaries for the columns whose values repeat from job to
		// job; ids and times are mostly unique.
		parquet.WithDictionaryDefault(false),
		// pyarrow's choice; some readers misread a REPEATED root.
		parquet.WithRootRepetition(parquet.Repetitions.Required),
	}
	for _, f := range []field{fUser, fGroup, fQueue, fPartition, fQOS, fArchitecture, fMemberGroup, fProject} {
		opts = append(opts, parquet.WithDictionaryFor(pqName(f), true))
	}
	// The library closes a writer that is an io.Closer; the caller owns w.
	fw, err := pqarrow.NewFileWriter(schema, struct{ io.Writer }{w}, parquet.NewWriterProperties(opts...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, err
	}
	for _, p := range kv {
		if err := fw.AppendKeyValueMetadata(p[0], p[1]); err != nil {
			return nil, err
		}
	}
	pw := &ParquetWriter{fw: fw, rb: array.NewRecordBuilder(mem, schema), cols: cols}
	for i, f := range schema.Fields() {
		if _, ok := cutReq(f.Name); ok {
			pw.req = append(pw.req, pw.rb.Field(i).(*array.Decimal128Builder))
			continue
		}
		fl, _ := pqField(f.Name)
		pw.b[fl] = pw.rb.Field(i)
	}
	pw.amounts = make([]reqAmount, len(pw.req))
	return pw, nil
}

// reqAmount is one requirement of the job being written; set is false
// when the job does not request the resource (a null cell).
type reqAmount struct {
	amount sim.Amount
	set    bool
}

// cutReq returns the resource of a req_ column name.
func cutReq(name string) (string, bool) {
	if len(name) > len(reqPrefix) && name[:len(reqPrefix)] == reqPrefix {
		return name[len(reqPrefix):], true
	}
	return "", false
}

// Write adds one job. A job the reader would reject, or one with a
// resource or trait that has no column, is an error naming it.
func (w *ParquetWriter) Write(j *sim.Job) error {
	if w.err != nil {
		return w.err
	}
	if err := checkJob(j); err != nil {
		return fmt.Errorf("job %q: %w", j.ID, err)
	}
	if err := w.cols.fits(j); err != nil {
		return err
	}
	return w.appendRow(j)
}

// appendRow adds j, checked, to the row group, and writes the row group
// when it is full.
func (w *ParquetWriter) appendRow(j *sim.Job) error {
	w.b[fID].(*array.StringBuilder).Append(j.ID)
	w.b[fSubmit].(*array.Int64Builder).Append(int64(j.Submit))
	w.b[fRuntime].(*array.Int64Builder).Append(int64(j.Runtime))
	if j.Walltime == sim.NoWalltime {
		w.b[fWalltime].AppendNull()
	} else {
		w.b[fWalltime].(*array.Int64Builder).Append(int64(j.Walltime))
	}
	w.b[fTasks].(*array.Int64Builder).Append(int64(j.Tasks))
	clear(w.amounts)
	for _, q := range j.Request {
		i, _ := w.cols.resource(q.Resource)
		w.amounts[i] = reqAmount{q.Amount, true}
	}
	for i, rb := range w.req {
		if a := w.amounts[i]; a.set {
			rb.Append(decimal128.FromI64(int64(a.amount)))
		} else {
			rb.AppendNull()
		}
	}
	for _, s := range [...]struct {
		f field
		v string
	}{{fUser, j.User}, {fGroup, j.Group}, {fQueue, j.Queue}, {fPartition, j.Partition}} {
		w.b[s.f].(*array.StringBuilder).Append(s.v)
	}
	w.b[fPriority].(*array.Int64Builder).Append(int64(j.Priority))
	w.b[fGang].(*array.BooleanBuilder).Append(writtenGang(j))
	w.appendRecorded(j)
	t := j.Traits
	if t == nil {
		t = &noTraits
	}
	w.appendTraits(t)
	if b := w.b[fDependsOn]; b != nil {
		appendDepsList(b.(*array.ListBuilder), j.DependsOn)
	}
	w.rows++
	if w.rows == rowGroupRows {
		return w.flush()
	}
	return nil
}

var noTraits sim.Traits

// appendRecorded appends one row to the recorded columns written: qos
// ("" for none), requested_procs (0 for none), recorded_start_us (null
// when the start was not recorded).
func (w *ParquetWriter) appendRecorded(j *sim.Job) {
	if b, ok := w.b[fQOS].(*array.StringBuilder); ok {
		b.Append(j.QOS)
	}
	if b, ok := w.b[fRequestedProcs].(*array.Int64Builder); ok {
		b.Append(j.RequestedProcs)
	}
	if b, ok := w.b[fRecordedStart].(*array.Int64Builder); ok {
		if j.Recorded {
			b.Append(int64(j.RecordedStart))
		} else {
			b.AppendNull()
		}
	}
}

// appendTraits appends one row to every trait column written; an absent
// field is null.
func (w *ParquetWriter) appendTraits(t *sim.Traits) {
	strs := func(f field, list []string) {
		lb, ok := w.b[f].(*array.ListBuilder)
		if !ok {
			return
		}
		if len(list) == 0 {
			lb.AppendNull()
			return
		}
		lb.Append(true)
		vb := lb.ValueBuilder().(*array.StringBuilder)
		for _, s := range list {
			vb.Append(s)
		}
	}
	labels := func(f field, list []sim.Label) {
		mb, ok := w.b[f].(*array.MapBuilder)
		if !ok {
			return
		}
		if len(list) == 0 {
			mb.AppendNull()
			return
		}
		mb.Append(true)
		kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.StringBuilder)
		for _, l := range list {
			kb.Append(l.Key)
			ib.Append(l.Value)
		}
	}
	text := func(f field, s string) {
		if b, ok := w.b[f].(*array.StringBuilder); ok {
			if s == "" {
				b.AppendNull()
			} else {
				b.Append(s)
			}
		}
	}
	strs(fImmunities, t.Immunities)
	strs(fAversionGroups, t.AversionGroups)
	labels(fSelector, t.Selector)
	labels(fLabels, t.Labels)
	text(fArchitecture, t.Architecture)
	text(fMemberGroup, t.MemberGroup)
	text(fProject, t.Project)
	if lb, ok := w.b[fTolerations].(*array.ListBuilder); ok {
		if len(t.Tolerations) == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			sb := lb.ValueBuilder().(*array.StructBuilder)
			for _, x := range t.Tolerations {
				sb.Append(true)
				sb.FieldBuilder(0).(*array.StringBuilder).Append(x.Key)
				sb.FieldBuilder(1).(*array.StringBuilder).Append(x.Value)
				sb.FieldBuilder(2).(*array.StringBuilder).Append(x.Effect)
			}
		}
	}
	if lb, ok := w.b[fConstraints].(*array.ListBuilder); ok {
		if len(t.Constraints) == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			sb := lb.ValueBuilder().(*array.StructBuilder)
			for _, c := range t.Constraints {
				sb.Append(true)
				sb.FieldBuilder(0).(*array.StringBuilder).Append(c.Kind)
				sb.FieldBuilder(1).(*array.StringBuilder).Append(c.Attribute)
				sb.FieldBuilder(2).(*array.StringBuilder).Append(c.Value)
				sb.FieldBuilder(3).(*array.Int64Builder).Append(int64(c.Groups))
				sb.FieldBuilder(4).(*array.BooleanBuilder).Append(c.Soft)
			}
		}
	}
}

// appendDepsList appends one job's depends_on: null for none.
func appendDepsList(lb *array.ListBuilder, deps []sim.Dependency) {
	if len(deps) == 0 {
		lb.AppendNull()
		return
	}
	lb.Append(true)
	sb := lb.ValueBuilder().(*array.StructBuilder)
	for _, d := range deps {
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append(d.ID)
		cond := "success"
		if d.AfterAny {
			cond = "any"
		}
		sb.FieldBuilder(1).(*array.StringBuilder).Append(cond)
		sb.FieldBuilder(2).(*array.Int64Builder).Append(int64(d.Think))
	}
}

// flush writes the buffered jobs as one row group.
func (w *ParquetWriter) flush() error {
	if w.rows == 0 {
		return nil
	}
	rec := w.rb.NewRecord()
	defer rec.Release()
	w.rows = 0
	if err := w.fw.Write(rec); err != nil {
		w.err = err
	}
	return w.err
}

// Close writes the last row group and the footer. It does not close the
// underlying writer.
func (w *ParquetWriter) Close() error {
	err := w.flush()
	w.rb.Release()
	if cerr := w.fw.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		w.err = fmt.Errorf("native: ParquetWriter is closed")
	}
	return err
}

// WriteParquet writes jobs as a Parquet trace with the columns they need
// and the given metadata (nil for none).
func WriteParquet(w io.Writer, jobs []*sim.Job, meta *Embedded) error {
	cols, err := ColumnsOf(jobs)
	if err != nil {
		return err
	}
	pw, err := NewParquetWriter(w, cols, meta)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if err := pw.Write(j); err != nil {
			pw.Close()
			return err
		}
	}
	return pw.Close()
}
