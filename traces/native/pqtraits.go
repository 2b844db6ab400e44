package native

import (
	"github.com/schedsim/schedsim/sim"
)

// traits reads the trait columns of row i. Errors are *traitError, with
// the same paths and reasons as in the text encodings.
func (d *parquetDecoder) traits(rec *record, i int) error {
	b := &d.batch
	for k, c := range b.traitText {
		if text, ok := c.text(i); ok && len(text) > 0 {
			t := rec.traits()
			s := d.str(text)
			switch traitTextFields[k] {
			case fArchitecture:
				t.Architecture = s
			case fMemberGroup:
				t.MemberGroup = s
			default:
				t.Project = s
			}
		}
	}
	for k, l := range b.strs {
		f := fImmunities + field(k)
		if l.list == nil || l.list.IsNull(i) {
			continue
		}
		start, end := l.list.ValueOffsets(i)
		if start == end {
			continue
		}
		list := make([]string, 0, end-start)
		for e := start; e < end; e++ {
			s, ok := strAt(l.vals, int(e))
			switch {
			case !ok:
				return &traitError{path: itemPath(f, int(e-start)), err: errWantString}
			case s == "":
				return &traitError{path: itemPath(f, int(e-start)), err: errEmpty}
			}
			list = append(list, d.clone(s))
		}
		if f == fImmunities {
			rec.traits().Immunities = list
		} else {
			rec.traits().AversionGroups = list
		}
	}
	for k, m := range b.labels {
		f := fSelector
		if k == 1 {
			f = fLabels
		}
		if m.m == nil || m.m.IsNull(i) {
			continue
		}
		start, end := m.m.ValueOffsets(i)
		var labels []sim.Label
		for e := int(start); e < int(end); e++ {
			key, _ := strAt(m.keys, e)
			val, ok := strAt(m.items, e)
			if !ok {
				continue // a null value is absent, as in JSON
			}
			if err := addLabel(&labels, d.clone(key), d.clone(val)); err != nil {
				return &traitError{path: f.String() + "." + key, err: err}
			}
		}
		if len(labels) > 0 {
			if f == fSelector {
				rec.traits().Selector = labels
			} else {
				rec.traits().Labels = labels
			}
		}
	}
	if err := d.tolerations(rec, i); err != nil {
		return err
	}
	return d.constraints(rec, i)
}

// items returns the range of row i's list of structs, and whether it has
// any; a null struct is an error at its index.
func (p *pqStructs) items(f field, i int) (int, int, error) {
	if p.list == nil || p.list.IsNull(i) {
		return 0, 0, nil
	}
	start, end := p.list.ValueOffsets(i)
	for e := start; e < end; e++ {
		if p.s.IsNull(int(e)) {
			err := errWantItem
			if f == fDependsOn {
				err = errWantDep
			}
			return 0, 0, &traitError{path: itemPath(f, int(e-start)), err: err}
		}
	}
	return int(start), int(end), nil
}

func (d *parquetDecoder) tolerations(rec *record, i int) error {
	p := &d.batch.tol
	start, end, err := p.items(fTolerations, i)
	if err != nil || start == end {
		return err
	}
	tols := make([]sim.Toleration, 0, end-start)
	for e := start; e < end; e++ {
		path := itemPath(fTolerations, e-start)
		key, ok := strAt(p.strs[0], e)
		switch {
		case !ok:
			return &traitError{path: path + ".key", err: errMissing}
		case key == "":
			return &traitError{path: path + ".key", err: errEmpty}
		}
		value, _ := strAt(p.strs[1], e)
		effect, _ := strAt(p.strs[2], e)
		if err := checkEffect(effect); err != nil {
			return &traitError{path: path + ".effect", err: err}
		}
		tols = append(tols, sim.Toleration{Key: d.clone(key), Value: d.clone(value), Effect: d.clone(effect)})
	}
	rec.traits().Tolerations = tols
	return nil
}

func (d *parquetDecoder) constraints(rec *record, i int) error {
	p := &d.batch.con
	start, end, err := p.items(fConstraints, i)
	if err != nil || start == end {
		return err
	}
	cons := make([]sim.Constraint, 0, end-start)
	for e := start; e < end; e++ {
		path := itemPath(fConstraints, e-start)
		kind, ok := strAt(p.strs[0], e)
		if !ok {
			return &traitError{path: path + ".kind", err: errMissing}
		}
		attr, _ := strAt(p.strs[1], e)
		value, _ := strAt(p.strs[2], e)
		groups, _ := intAt(p.num, e)
		if groups > 1<<31 || groups < -1<<31 {
			return &traitError{path: path + ".groups", err: errInteger}
		}
		c := sim.Constraint{Kind: d.clone(kind), Attribute: d.clone(attr), Value: d.clone(value), Groups: int(groups)}
		if p.flag != nil && !p.flag.IsNull(e) {
			c.Soft = p.flag.Value(e)
		}
		if sub, err := checkConstraint(c); err != nil {
			return &traitError{path: path + sub, err: err}
		}
		cons = append(cons, c)
	}
	rec.traits().Constraints = cons
	return nil
}

// deps reads depends_on: {job, condition, think_us} structs.
func (d *parquetDecoder) deps(j *sim.Job, i int) error {
	p := &d.batch.dep
	start, end, err := p.items(fDependsOn, i)
	if err != nil || start == end {
		return err
	}
	deps := make([]sim.Dependency, 0, end-start)
	for e := start; e < end; e++ {
		path := itemPath(fDependsOn, e-start)
		id, ok := strAt(p.strs[0], e)
		switch {
		case !ok:
			return &traitError{path: path + ".job", err: errMissing}
		case id == "":
			return &traitError{path: path + ".job", err: errEmpty}
		}
		dep := sim.Dependency{ID: d.clone(id)}
		switch cond, _ := strAt(p.strs[1], e); cond {
		case "", "success":
		case "any":
			dep.AfterAny = true
		default:
			return &traitError{path: path + ".condition", err: errCondition}
		}
		think, _ := intAt(p.num, e)
		switch {
		case think < 0:
			return &traitError{path: path + "." + memThinkUS, err: errNegTime}
		case think > int64(maxTime):
			return &traitError{path: path + "." + memThinkUS, err: errBigTime}
		}
		dep.Think = sim.Time(think)
		deps = append(deps, dep)
	}
	j.DependsOn = deps
	return nil
}
