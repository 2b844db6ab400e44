package native

import (
	"github.com/schedsim/schedsim/sim"
)

// traits reads the trait columns of row i of the chunk. Errors are
// *traitError, with the same paths and reasons as in the text encodings.
func (d *parquetDecoder) traits(rec *record, i int) error {
	b := &d.batch
	for k, c := range b.traitText {
		if s := c.str(i, &d.interner); s != "" {
			t := rec.traits()
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
	r := d.rgRow + i // nested columns are indexed by the row group's row
	for k, n := range b.strs {
		if err := d.strings(rec, fImmunities+field(k), n, r); err != nil {
			return err
		}
	}
	for k, n := range b.labels {
		f := fSelector
		if k == 1 {
			f = fLabels
		}
		if err := d.labels(rec, f, n, r); err != nil {
			return err
		}
	}
	if err := d.tolerations(rec, r); err != nil {
		return err
	}
	return d.constraints(rec, r)
}

// strings reads immunities or aversion_groups: non-empty strings.
func (d *parquetDecoder) strings(rec *record, f field, n *nestedField, r int) error {
	if n == nil {
		return nil
	}
	a, b := n.items(r)
	if a == b {
		return nil
	}
	l := n.leaves[0]
	list := make([]string, 0, b-a)
	for j := a; j < b; j++ {
		s, ok := l.text(j)
		switch {
		case !ok:
			return &traitError{path: itemPath(f, j-a), err: errWantString}
		case len(s) == 0:
			return &traitError{path: itemPath(f, j-a), err: errEmpty}
		}
		list = append(list, d.str(s))
	}
	if f == fImmunities {
		rec.traits().Immunities = list
	} else {
		rec.traits().AversionGroups = list
	}
	return nil
}

// labels reads selector or labels, a map kept in order; a null value is
// absent, as in JSON.
func (d *parquetDecoder) labels(rec *record, f field, n *nestedField, r int) error {
	if n == nil {
		return nil
	}
	a, b := n.items(r)
	keys, values := n.member("key"), n.member("value")
	var labels []sim.Label
	for j := a; j < b; j++ {
		key, _ := keys.text(j)
		val, ok := values.text(j)
		if !ok {
			continue
		}
		k := d.str(key)
		if err := addLabel(&labels, k, d.str(val)); err != nil {
			return &traitError{path: f.String() + "." + k, err: err}
		}
	}
	if len(labels) > 0 {
		if f == fSelector {
			rec.traits().Selector = labels
		} else {
			rec.traits().Labels = labels
			rec.job.CotaskGroup = cotaskGroup(labels)
		}
	}
	return nil
}

// structs returns the levels of row r's list of structs, or an error for
// a null struct among them.
func structs(f field, n *nestedField, r int) (int, int, error) {
	if n == nil {
		return 0, 0, nil
	}
	a, b := n.items(r)
	for j := a; j < b; j++ {
		if n.leaves[0].elemNull(j) {
			err := errWantItem
			if f == fDependsOn {
				err = errWantDep
			}
			return 0, 0, &traitError{path: itemPath(f, j-a), err: err}
		}
	}
	return a, b, nil
}

func (d *parquetDecoder) tolerations(rec *record, r int) error {
	n := d.batch.tol
	a, b, err := structs(fTolerations, n, r)
	if err != nil || a == b {
		return err
	}
	keys, values, effects := n.member("key"), n.member("value"), n.member("effect")
	tols := make([]sim.Toleration, 0, b-a)
	for j := a; j < b; j++ {
		path := itemPath(fTolerations, j-a)
		key, ok := keys.text(j)
		switch {
		case !ok:
			return &traitError{path: path + ".key", err: errMissing}
		case len(key) == 0:
			return &traitError{path: path + ".key", err: errEmpty}
		}
		value, _ := values.text(j)
		effect, _ := effects.text(j)
		e := d.str(effect)
		if err := checkEffect(e); err != nil {
			return &traitError{path: path + ".effect", err: err}
		}
		tols = append(tols, sim.Toleration{Key: d.str(key), Value: d.str(value), Effect: e})
	}
	rec.traits().Tolerations = tols
	return nil
}

func (d *parquetDecoder) constraints(rec *record, r int) error {
	n := d.batch.con
	a, b, err := structs(fConstraints, n, r)
	if err != nil || a == b {
		return err
	}
	kinds, attrs, values := n.member("kind"), n.member("attribute"), n.member("value")
	groups, soft := n.member("groups"), n.member("soft")
	cons := make([]sim.Constraint, 0, b-a)
	for j := a; j < b; j++ {
		path := itemPath(fConstraints, j-a)
		kind, ok := kinds.text(j)
		if !ok {
			return &traitError{path: path + ".kind", err: errMissing}
		}
		attr, _ := attrs.text(j)
		value, _ := values.text(j)
		g, _ := groups.int(j)
		if g > 1<<31 || g < -1<<31 {
			return &traitError{path: path + ".groups", err: errInteger}
		}
		c := sim.Constraint{Kind: d.str(kind), Attribute: d.str(attr), Value: d.str(value), Groups: int(g)}
		c.Soft, _ = soft.flag(j)
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
	n := d.batch.dep
	a, b, err := structs(fDependsOn, n, d.rgRow+i)
	if err != nil || a == b {
		return err
	}
	jobs, conds, thinks := n.member("job"), n.member("condition"), n.member(memThinkUS)
	deps := make([]sim.Dependency, 0, b-a)
	for e := a; e < b; e++ {
		path := itemPath(fDependsOn, e-a)
		id, ok := jobs.text(e)
		switch {
		case !ok:
			return &traitError{path: path + ".job", err: errMissing}
		case len(id) == 0:
			return &traitError{path: path + ".job", err: errEmpty}
		}
		dep := sim.Dependency{ID: d.str(id)}
		switch cond, _ := conds.text(e); string(cond) {
		case "", "success":
		case "any":
			dep.AfterAny = true
		default:
			return &traitError{path: path + ".condition", err: errCondition}
		}
		think, _ := thinks.int(e)
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
