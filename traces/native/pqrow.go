package native

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// pqBatch binds the columns of one chunk of rows to the fields; a nil
// column is one the file does not have (every value null).
type pqBatch struct {
	id, submit, runtime, walltime, tasks, prio, gang *flatCol
	text                                             [4]*flatCol // user, group, queue, partition
	qos, procs, recorded                             *flatCol
	traitText                                        [3]*flatCol // architecture, member_group, project
	req                                              []pqReq
	// The nested columns, indexed by the row of the row group.
	strs          [2]*nestedField // immunities, aversion_groups
	labels        [2]*nestedField // selector, labels
	tol, con, dep *nestedField    // tolerations, constraints, depends_on
}

// pqReq is a req_ column: its values are decimals of scale 3 − log10(mul).
type pqReq struct {
	*flatCol
	mul int64 // 10^(3 − scale)
}

var textFields = [4]field{fUser, fGroup, fQueue, fPartition}
var traitTextFields = [3]field{fArchitecture, fMemberGroup, fProject}

// bind points the batch at the chunk's columns.
func (b *pqBatch) bind(flat []*flatCol, nested []*nestedField) {
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
		case fQOS:
			b.qos = c
		case fRequestedProcs:
			b.procs = c
		case fRecordedStart:
			b.recorded = c
		case fUser, fGroup, fQueue, fPartition:
			b.text[c.f-fUser] = c
		case fArchitecture, fMemberGroup, fProject:
			b.traitText[c.f-fArchitecture] = c
		}
	}
	for _, n := range nested {
		switch n.f {
		case fImmunities, fAversionGroups:
			b.strs[n.f-fImmunities] = n
		case fSelector:
			b.labels[0] = n
		case fLabels:
			b.labels[1] = n
		case fTolerations:
			b.tol = n
		case fConstraints:
			b.con = n
		case fDependsOn:
			b.dep = n
		}
	}
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
	markIndependent(j)
	for k, c := range b.text {
		if v := c.str(i, &d.interner); v != "" {
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
	j.QOS = b.qos.str(i, &d.interner)
	if v, ok := b.procs.int(i); ok {
		if v < 0 {
			return "requested_procs", "", errNegTime
		}
		j.RequestedProcs = v
	}
	if v, ok := b.recorded.int(i); ok {
		if v > int64(maxTime) || v < -int64(maxTime) {
			return colRecordedUS, "", errBigTime
		}
		j.Recorded, j.RecordedStart = true, sim.Time(v)
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
	if bytes.Equal(key, d.lastReqKey) { // most rows repeat the previous one's
		j.Request = d.lastReq
		return "", nil
	}
	d.lastReqKey = append(d.lastReqKey[:0], key...)
	if q, ok := d.reqShapes[string(key)]; ok {
		j.Request, d.lastReq = q, q
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
	j.Request, d.lastReq = q, q
	return "", nil
}
