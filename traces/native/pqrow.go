package native

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// pqBatch binds the columns of one chunk of rows to the fields; a nil
// column is one the file does not have (every value null).
type pqBatch struct {
	id, submit, runtime, walltime, tasks, prio, gang *flatCol
	text                                             [4]*flatCol // user, group, queue, partition
	traitText                                        [3]*flatCol // architecture, member_group, project
	req                                              []pqReq
	strs                                             [2]pqStrings // immunities, aversion_groups
	labels                                           [2]pqLabels  // selector, labels
	tol                                              pqStructs    // key, value, effect
	con                                              pqStructs    // kind, attribute, value, groups, soft
	dep                                              pqStructs    // job, condition, think_us
}

// pqReq is a req_ column: its values are decimals of scale 3 − log10(mul).
type pqReq struct {
	*flatCol
	mul int64 // 10^(3 − scale)
}

// pqStrings is a list of strings.
type pqStrings struct {
	list *array.List
	vals *array.String
}

// pqLabels is a map of string → string.
type pqLabels struct {
	m           *array.Map
	keys, items *array.String
}

// pqStructs is a list of structs; members are found by name, nil when
// the file leaves one out.
type pqStructs struct {
	list *array.List
	s    *array.Struct
	strs [3]*array.String
	num  *array.Int64
	flag *array.Boolean
}

var textFields = [4]field{fUser, fGroup, fQueue, fPartition}
var traitTextFields = [3]field{fArchitecture, fMemberGroup, fProject}

// bind points the batch at the chunk's columns.
func (b *pqBatch) bind(flat []*flatCol, nested []nestedCol) {
	*b = pqBatch{req: b.req[:0]}
	for _, c := range flat {
		switch c.f {
		case fRequest:
			mul := int64(1)
			for range 3 - c.scale {
				mul *= 10
			}
			b.req = append(b.req, pqReq{c, mul})
		case fID:
			b.id = c
		case fSubmit:
			b.submit = c
		case fRuntime:
			b.runtime = c
		case fWalltime:
			b.walltime = c
		case fTasks:
			b.tasks = c
		case fPriority:
			b.prio = c
		case fGang:
			b.gang = c
		case fUser, fGroup, fQueue, fPartition:
			b.text[c.f-fUser] = c
		case fArchitecture, fMemberGroup, fProject:
			b.traitText[c.f-fArchitecture] = c
		}
	}
	for _, n := range nested {
		switch n.f {
		case fImmunities, fAversionGroups:
			l := n.cur.(*array.List)
			b.strs[n.f-fImmunities] = pqStrings{l, l.ListValues().(*array.String)}
		case fSelector, fLabels:
			m := n.cur.(*array.Map)
			k := 0
			if n.f == fLabels {
				k = 1
			}
			b.labels[k] = pqLabels{m, m.Keys().(*array.String), m.Items().(*array.String)}
		case fTolerations:
			b.tol = bindStructs(n.cur.(*array.List), tolerationKeys, -1, -1)
		case fConstraints:
			b.con = bindStructs(n.cur.(*array.List), constraintKeys, 3, 4)
		case fDependsOn:
			b.dep = bindStructs(n.cur.(*array.List), []string{"job", "condition", memThinkUS}, 2, -1)
		}
	}
}

// bindStructs finds the members of a list of structs by name: keys in
// schema order, num and flag the positions of the integer and boolean
// members (−1 for none); the others are strings.
func bindStructs(l *array.List, keys []string, num, flag int) pqStructs {
	p := pqStructs{list: l, s: l.ListValues().(*array.Struct)}
	st := p.s.DataType().(*arrow.StructType)
	k := 0
	for m, key := range keys {
		idx, ok := st.FieldIdx(key)
		switch {
		case m == num:
			if ok {
				p.num = p.s.Field(idx).(*array.Int64)
			}
		case m == flag:
			if ok {
				p.flag = p.s.Field(idx).(*array.Boolean)
			}
		default:
			if ok {
				p.strs[k] = p.s.Field(idx).(*array.String)
			}
			k++
		}
	}
	return p
}

// str returns a's value at i; "" and false when a is nil or it is null.
func strAt(a *array.String, i int) (string, bool) {
	if a == nil || a.IsNull(i) {
		return "", false
	}
	return a.Value(i), true
}

func intAt(a *array.Int64, i int) (int64, bool) {
	if a == nil || a.IsNull(i) {
		return 0, false
	}
	return a.Value(i), true
}

// clone returns s as a string of its own (Arrow's strings point into the
// batch's buffers), shared with earlier rows when it repeats.
func (in *interner) clone(s string) string {
	if v, ok := in.m[s]; ok {
		return v
	}
	s = strings.Clone(s)
	if len(in.m) < maxIntern && len(s) <= 64 {
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[s] = s
	}
	return s
}

var errWalltimeUS = fmt.Errorf("must be ≥ 0, or null for unknown")

// decodeRow fills rec from row i of the chunk. It returns the column at
// fault (and a path inside it), or a *traitError for a structured field.
func (d *parquetDecoder) decodeRow(rec *record, i int) (string, string, error) {
	b := &d.batch
	j := &rec.job
	id, ok := b.id.text(i)
	switch {
	case !ok:
		return "id", "", errMissing
	case len(id) == 0:
		return "id", "", errEmpty
	}
	j.ID = string(id)
	for _, c := range [...]struct {
		c   *flatCol
		dst *sim.Time
	}{{b.submit, &j.Submit}, {b.runtime, &j.Runtime}} {
		v, ok := c.c.int(i)
		switch {
		case !ok:
			return c.c.name, "", errMissing
		case v < 0:
			return c.c.name, "", errNegTime
		case v > int64(maxTime):
			return c.c.name, "", errBigTime
		}
		*c.dst = sim.Time(v)
	}
	if v, ok := b.walltime.int(i); ok {
		switch {
		case v < 0:
			return colWalltimeUS, "", errWalltimeUS
		case v > int64(maxTime):
			return colWalltimeUS, "", errBigTime
		}
		j.Walltime = sim.Time(v)
	}
	if v, ok := b.tasks.int(i); ok {
		if v < 1 || v > 1<<31 {
			return "tasks", "", errTasks
		}
		j.Tasks = int(v)
	}
	if v, ok := b.prio.int(i); ok {
		j.Priority = int(v)
	}
	if b.gang.present(i) {
		j.Gang = b.gang.bools[i]
	}
	for k, c := range b.text {
		if s, ok := c.text(i); ok && len(s) > 0 {
			v := d.str(s)
			switch textFields[k] {
			case fUser:
				j.User = v
			case fGroup:
				j.Group = v
			case fQueue:
				j.Queue = v
			default:
				j.Partition = v
			}
		}
	}
	if col, err := d.requests(j, i); err != nil {
		return col, "", err
	}
	if err := d.traits(rec, i); err != nil {
		return "", "", err
	}
	return "", "", d.deps(j, i)
}

// maxReqShapes bounds the requirement vectors a reader shares.
const maxReqShapes = 4096

// requests reads the req_ columns of row i, in column order. Jobs with
// the same requirements share one Request slice (full, so an append
// copies it): a trace has few distinct ones, and the allocation it saves
// is a good part of the reading time. Nothing modifies a job's Request.
func (d *parquetDecoder) requests(j *sim.Job, i int) (string, error) {
	key := d.reqKey[:0]
	n := 0
	for _, r := range d.batch.req {
		if !r.present(i) {
			key = append(key, 0)
			continue
		}
		a := r.ints[i]
		if a > int64(maxAmount)/r.mul || a < -int64(maxAmount)/r.mul {
			return r.name, errBigAmount
		}
		key = binary.LittleEndian.AppendUint64(append(key, 1), uint64(a))
		n++
	}
	d.reqKey = key
	if n == 0 {
		return "", nil
	}
	if q, ok := d.reqShapes[string(key)]; ok {
		j.Request = q
		return "", nil
	}
	q := make([]sim.Quantity, 0, n)
	for _, r := range d.batch.req {
		if r.present(i) {
			q = append(q, sim.Quantity{Resource: r.res, Amount: sim.Amount(r.ints[i] * r.mul)})
		}
	}
	if len(d.reqShapes) < maxReqShapes {
		if d.reqShapes == nil {
			d.reqShapes = map[string][]sim.Quantity{}
		}
		d.reqShapes[string(key)] = q
	}
	j.Request = q
	return "", nil
}
