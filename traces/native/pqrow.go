package native

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedsim/schedsim/sim"
)

// pqBatch holds the typed arrays of one batch of a Parquet trace; a nil
// array is a column the file does not have (every value null).
type pqBatch struct {
	id                                     *array.String
	submit, runtime, walltime, tasks, prio *array.Int64
	gang                                   *array.Boolean
	text                                   [4]*array.String // user, group, queue, partition
	req                                    []pqReq
	traitText                              [3]*array.String // architecture, member_group, project
	strs                                   [2]pqStrings     // immunities, aversion_groups
	labels                                 [2]pqLabels      // selector, labels
	tol                                    pqStructs        // key, value, effect
	con                                    pqStructs        // kind, attribute, value, groups, soft
	dep                                    pqStructs        // job, condition, think_us
}

type pqReq struct {
	a   *array.Decimal128
	col string
	res string
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

// bind points the batch at rec's columns.
func (b *pqBatch) bind(rec arrow.Record, cols []pqColumn) error {
	*b = pqBatch{req: b.req[:0]}
	for i, c := range cols {
		a := rec.Column(i)
		switch c.f {
		case fRequest:
			mul := int64(1)
			for range 3 - c.scale {
				mul *= 10
			}
			b.req = append(b.req, pqReq{a: a.(*array.Decimal128), col: c.name, res: c.res, mul: mul})
		case fID:
			b.id = a.(*array.String)
		case fSubmit:
			b.submit = a.(*array.Int64)
		case fRuntime:
			b.runtime = a.(*array.Int64)
		case fWalltime:
			b.walltime = a.(*array.Int64)
		case fTasks:
			b.tasks = a.(*array.Int64)
		case fPriority:
			b.prio = a.(*array.Int64)
		case fGang:
			b.gang = a.(*array.Boolean)
		case fUser, fGroup, fQueue, fPartition:
			b.text[c.f-fUser] = a.(*array.String)
		case fArchitecture, fMemberGroup, fProject:
			b.traitText[c.f-fArchitecture] = a.(*array.String)
		case fImmunities, fAversionGroups:
			l := a.(*array.List)
			b.strs[c.f-fImmunities] = pqStrings{l, l.ListValues().(*array.String)}
		case fSelector, fLabels:
			m := a.(*array.Map)
			k := 0
			if c.f == fLabels {
				k = 1
			}
			b.labels[k] = pqLabels{m, m.Keys().(*array.String), m.Items().(*array.String)}
		case fTolerations:
			b.tol = bindStructs(a.(*array.List), tolerationKeys, -1, -1)
		case fConstraints:
			b.con = bindStructs(a.(*array.List), constraintKeys, 3, 4)
		case fDependsOn:
			b.dep = bindStructs(a.(*array.List), []string{"job", "condition", memThinkUS}, 2, -1)
		}
	}
	return nil
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

// decodeRow fills rec from row i of the batch. It returns the column at
// fault (and a path inside it), or a *traitError for a structured field.
func (d *parquetDecoder) decodeRow(rec *record, i int) (string, string, error) {
	b := &d.batch
	j := &rec.job
	id, ok := strAt(b.id, i)
	switch {
	case !ok:
		return "id", "", errMissing
	case id == "":
		return "id", "", errEmpty
	}
	j.ID = strings.Clone(id)
	for _, c := range [...]struct {
		a   *array.Int64
		dst *sim.Time
		col string
	}{{b.submit, &j.Submit, colSubmitUS}, {b.runtime, &j.Runtime, colRuntimeUS}} {
		v, ok := intAt(c.a, i)
		switch {
		case !ok:
			return c.col, "", errMissing
		case v < 0:
			return c.col, "", errNegTime
		case v > int64(maxTime):
			return c.col, "", errBigTime
		}
		*c.dst = sim.Time(v)
	}
	if v, ok := intAt(b.walltime, i); ok {
		switch {
		case v < 0:
			return colWalltimeUS, "", errWalltimeUS
		case v > int64(maxTime):
			return colWalltimeUS, "", errBigTime
		}
		j.Walltime = sim.Time(v)
	}
	if v, ok := intAt(b.tasks, i); ok {
		if v < 1 || v > 1<<31 {
			return "tasks", "", errTasks
		}
		j.Tasks = int(v)
	}
	if v, ok := intAt(b.prio, i); ok {
		j.Priority = int(v)
	}
	if b.gang != nil && !b.gang.IsNull(i) {
		j.Gang = b.gang.Value(i)
	}
	for k, a := range b.text {
		if s, ok := strAt(a, i); ok && s != "" {
			s = d.clone(s)
			switch textFields[k] {
			case fUser:
				j.User = s
			case fGroup:
				j.Group = s
			case fQueue:
				j.Queue = s
			default:
				j.Partition = s
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

// requests reads the req_ columns of row i, in column order.
func (d *parquetDecoder) requests(j *sim.Job, i int) (string, error) {
	n := 0
	for _, r := range d.batch.req {
		if r.a.IsValid(i) {
			n++
		}
	}
	if n == 0 {
		return "", nil
	}
	j.Request = make([]sim.Quantity, 0, n)
	for _, r := range d.batch.req {
		if !r.a.IsValid(i) {
			continue
		}
		v := r.a.Value(i)
		// The value fits an int64 when the high word only extends the
		// low word's sign.
		hi, a := v.HighBits(), int64(v.LowBits())
		if hi != a>>63 {
			return r.col, errBigAmount
		}
		if a > int64(maxAmount)/r.mul || a < -int64(maxAmount)/r.mul {
			return r.col, errBigAmount
		}
		j.Request = append(j.Request, sim.Quantity{Resource: r.res, Amount: sim.Amount(a * r.mul)})
	}
	return "", nil
}
