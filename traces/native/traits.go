package native

import (
	"fmt"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// The placement traits (sim.Traits) are optional fields. Three are strings
// (architecture, member_group, project) and go through record.setText; the
// others are JSON lists or objects, read here from a jsonScanner: the JSON
// Lines reader hands it the line, the CSV reader the cell. A job with none
// of them keeps Traits == nil; an empty list, object or string is the same
// as an absent field.
//
// Constraint kinds are checked by sim.CheckConstraint, the placement
// pipeline's own check (policies/placement imports only sim, so there is no
// cycle).

// traitError is a bad value inside a structured trait field.
type traitError struct {
	path  string // the field as documented: "constraints[0].kind", "selector.zone"
	err   error
	fatal bool // an unknown key, which stops the reader in both modes
}

func (e *traitError) Error() string { return e.path + ": " + e.err.Error() }

// The members of a toleration and of a constraint, in the order a writer
// emits them.
var (
	tolerationKeys = []string{"key", "value", "effect"}
	constraintKeys = []string{"kind", "attribute", "value", "groups", "soft"}
)

func itemPath(f field, i int) string { return f.String() + "[" + strconv.Itoa(i) + "]" }

// decodeTrait reads the value of the structured field f, the scanner being
// just before it. It returns nil, a *traitError, or the scanner's syntax
// error.
func (r *record) decodeTrait(s *jsonScanner, f field, str func([]byte) string) error {
	k, err := s.value()
	if err != nil {
		return err
	}
	if k == vNull {
		return nil // absent
	}
	switch f.kind() {
	case kStrings:
		return r.decodeStrings(s, f, k, str)
	case kLabels:
		return r.decodeLabels(s, f, k, str)
	case kDeps:
		return r.decodeDeps(s, k)
	}
	return r.decodeList(s, f, k, str)
}

// eachElem reads a JSON list whose opening bracket is read, calling each
// with every element's index and kind once its first token is read.
func eachElem(s *jsonScanner, each func(i int, k vkind) error) error {
	for i := 0; ; i++ {
		more, err := s.elem(i == 0)
		if err != nil || !more {
			return err
		}
		k, err := s.value()
		if err != nil {
			return err
		}
		if err := each(i, k); err != nil {
			return err
		}
	}
}

// decodeStrings reads a list of non-empty strings.
func (r *record) decodeStrings(s *jsonScanner, f field, k vkind, str func([]byte) string) error {
	if k != vArray {
		return &traitError{path: f.String(), err: errWantStrings}
	}
	var list []string
	err := eachElem(s, func(i int, k vkind) error {
		switch {
		case k != vString:
			return &traitError{path: itemPath(f, i), err: errWantString}
		case len(s.text) == 0:
			return &traitError{path: itemPath(f, i), err: errEmpty}
		}
		list = append(list, str(s.text))
		return nil
	})
	if err != nil {
		return err
	}
	if len(list) > 0 {
		if f == fImmunities {
			r.traits().Immunities = list
		} else {
			r.traits().AversionGroups = list
		}
	}
	return nil
}

// decodeLabels reads an object of string → string, keeping the order of
// its keys; a null value is absent, as in request.
func (r *record) decodeLabels(s *jsonScanner, f field, k vkind, str func([]byte) string) error {
	if k != vObject {
		return &traitError{path: f.String(), err: errWantLabels}
	}
	var labels []sim.Label
	for first := true; ; first = false {
		key, more, err := s.member(first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		name := str(key)
		if err := s.colon(); err != nil {
			return err
		}
		k, err := s.value()
		if err != nil {
			return err
		}
		if k == vNull {
			continue
		}
		if k != vString {
			return &traitError{path: f.String() + "." + name, err: errWantString}
		}
		if err := addLabel(&labels, name, str(s.text)); err != nil {
			return &traitError{path: f.String() + "." + name, err: err}
		}
	}
	if len(labels) > 0 {
		if f == fSelector {
			r.traits().Selector = labels
		} else {
			r.traits().Labels = labels
			r.job.CotaskGroup = cotaskGroup(labels)
		}
	}
	return nil
}

func addLabel(labels *[]sim.Label, key, value string) error {
	if key == "" {
		return errKeyName
	}
	for _, l := range *labels {
		if l.Key == key {
			return errTwice
		}
	}
	*labels = append(*labels, sim.Label{Key: key, Value: value})
	return nil
}

// decodeList reads tolerations or constraints: a list of objects.
func (r *record) decodeList(s *jsonScanner, f field, k vkind, str func([]byte) string) error {
	if k != vArray {
		return &traitError{path: f.String(), err: errWantList}
	}
	var tols []sim.Toleration
	var cons []sim.Constraint
	err := eachElem(s, func(i int, k vkind) error {
		if k != vObject {
			return &traitError{path: itemPath(f, i), err: errWantItem}
		}
		if f == fTolerations {
			var t sim.Toleration
			err := decodeItem(s, f, i, tolerationKeys, func(m int, k vkind) error {
				if k != vString {
					return errWantString
				}
				v := str(s.text)
				switch m {
				case 0:
					if v == "" {
						return errEmpty
					}
					t.Key = v
				case 1:
					t.Value = v
				case 2:
					if err := checkEffect(v); err != nil {
						return err
					}
					t.Effect = v
				}
				return nil
			})
			if err != nil {
				return err
			}
			tols = append(tols, t)
			return nil
		}
		var c sim.Constraint
		err := decodeItem(s, f, i, constraintKeys, func(m int, k vkind) error {
			switch m {
			case 3:
				if k != vNumber {
					return errWantNumber
				}
				n, err := atoi(string(s.text))
				if err != nil {
					return errInteger
				}
				c.Groups = n
				return nil
			case 4:
				if k != vTrue && k != vFalse {
					return errWantBool
				}
				c.Soft = k == vTrue
				return nil
			}
			if k != vString {
				return errWantString
			}
			v := str(s.text)
			switch m {
			case 0:
				c.Kind = v
			case 1:
				c.Attribute = v
			case 2:
				c.Value = v
			}
			return nil
		})
		if err != nil {
			return err
		}
		if sub, err := checkConstraint(c); err != nil {
			return &traitError{path: itemPath(f, i) + sub, err: err}
		}
		cons = append(cons, c)
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case len(tols) > 0:
		r.traits().Tolerations = tols
	case len(cons) > 0:
		r.traits().Constraints = cons
	}
	return nil
}

// decodeItem reads the members of item i of list f, its '{' read: each key
// must be one of keys (the first of which is required), given once; set
// takes each non-null value (its text in s.text) and returns the reason it
// is bad.
func decodeItem(s *jsonScanner, f field, i int, keys []string, set func(m int, k vkind) error) error {
	var seen uint8
	for first := true; ; first = false {
		key, more, err := s.member(first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		m := -1
		for j, name := range keys {
			if string(key) == name {
				m = j
				break
			}
		}
		if m < 0 {
			return &traitError{path: itemPath(f, i) + "." + string(key), err: errUnknown, fatal: true}
		}
		if seen&(1<<m) != 0 {
			return &traitError{path: itemPath(f, i) + "." + keys[m], err: errTwice}
		}
		if err := s.colon(); err != nil {
			return err
		}
		k, err := s.value()
		if err != nil {
			return err
		}
		if k == vNull {
			continue // absent
		}
		if err := set(m, k); err != nil {
			return &traitError{path: itemPath(f, i) + "." + keys[m], err: err}
		}
		seen |= 1 << m
	}
	if seen&1 == 0 {
		return &traitError{path: itemPath(f, i) + "." + keys[0], err: errMissing}
	}
	return nil
}

// checkEffect accepts the taint effects a cluster file allows, or none.
func checkEffect(e string) error {
	switch e {
	case "", "NoSchedule", "PreferNoSchedule":
		return nil
	}
	return errEffect
}

// checkConstraint runs sim.CheckConstraint and names the member at
// fault: ".kind" for an unknown kind, ".attribute" for a missing attribute,
// ".groups" for a bad group count, else "" (the whole constraint).
func checkConstraint(c sim.Constraint) (string, error) {
	err := sim.CheckConstraint(c)
	if err == nil {
		return "", nil
	}
	switch {
	case sim.CheckConstraint(sim.Constraint{Kind: c.Kind, Attribute: "a"}) != nil:
		return ".kind", err
	case c.Attribute == "":
		return ".attribute", err
	case c.Groups < 0:
		return ".groups", err
	}
	return "", err
}

// checkTraits reports what the reader would reject in t.
func checkTraits(t *sim.Traits) error {
	for _, l := range [...]struct {
		f    field
		list []string
	}{{fImmunities, t.Immunities}, {fAversionGroups, t.AversionGroups}} {
		for i, s := range l.list {
			if s == "" {
				return fmt.Errorf("%s: %w", itemPath(l.f, i), errEmpty)
			}
		}
	}
	for _, l := range [...]struct {
		f      field
		labels []sim.Label
	}{{fSelector, t.Selector}, {fLabels, t.Labels}} {
		var seen []sim.Label
		for _, x := range l.labels {
			if err := addLabel(&seen, x.Key, x.Value); err != nil {
				return fmt.Errorf("%s.%s: %w", l.f, x.Key, err)
			}
		}
	}
	for i, x := range t.Tolerations {
		if x.Key == "" {
			return fmt.Errorf("%s.key: %w", itemPath(fTolerations, i), errEmpty)
		}
		if err := checkEffect(x.Effect); err != nil {
			return fmt.Errorf("%s.effect: %w", itemPath(fTolerations, i), err)
		}
	}
	for i, c := range t.Constraints {
		if sub, err := checkConstraint(c); err != nil {
			return fmt.Errorf("%s%s: %w", itemPath(fConstraints, i), sub, err)
		}
	}
	return nil
}

// traitText returns the value of trait field f in t as a CSV cell: the
// text of a string field, compact JSON for the others; "" when absent.
func traitText(buf []byte, f field, t *sim.Traits) ([]byte, string) {
	switch f {
	case fArchitecture:
		return buf, t.Architecture
	case fMemberGroup:
		return buf, t.MemberGroup
	case fProject:
		return buf, t.Project
	}
	if !hasTrait(f, t) {
		return buf, ""
	}
	buf = appendTrait(buf[:0], f, t)
	return buf, string(buf)
}

// hasTrait reports whether t has a value for field f.
func hasTrait(f field, t *sim.Traits) bool {
	switch f {
	case fImmunities:
		return len(t.Immunities) > 0
	case fAversionGroups:
		return len(t.AversionGroups) > 0
	case fSelector:
		return len(t.Selector) > 0
	case fTolerations:
		return len(t.Tolerations) > 0
	case fConstraints:
		return len(t.Constraints) > 0
	case fArchitecture:
		return t.Architecture != ""
	case fMemberGroup:
		return t.MemberGroup != ""
	case fProject:
		return t.Project != ""
	case fLabels:
		return len(t.Labels) > 0
	}
	return false
}

// appendTrait appends the JSON value of trait field f of t.
func appendTrait(dst []byte, f field, t *sim.Traits) []byte {
	strs := func(list []string) []byte {
		dst = append(dst, '[')
		for i, s := range list {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s)
		}
		return append(dst, ']')
	}
	labels := func(list []sim.Label) []byte {
		dst = append(dst, '{')
		for i, l := range list {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, l.Key)
			dst = append(dst, ':')
			dst = appendJSONString(dst, l.Value)
		}
		return append(dst, '}')
	}
	member := func(first bool, key, value string) {
		if value == "" {
			return
		}
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, key...)
		dst = append(dst, `":`...)
		dst = appendJSONString(dst, value)
	}
	switch f {
	case fImmunities:
		return strs(t.Immunities)
	case fAversionGroups:
		return strs(t.AversionGroups)
	case fSelector:
		return labels(t.Selector)
	case fLabels:
		return labels(t.Labels)
	case fArchitecture:
		return appendJSONString(dst, t.Architecture)
	case fMemberGroup:
		return appendJSONString(dst, t.MemberGroup)
	case fProject:
		return appendJSONString(dst, t.Project)
	case fTolerations:
		dst = append(dst, '[')
		for i, x := range t.Tolerations {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '{')
			member(true, "key", x.Key) // never empty
			member(false, "value", x.Value)
			member(false, "effect", x.Effect)
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case fConstraints:
		dst = append(dst, '[')
		for i, c := range t.Constraints {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"kind":`...)
			dst = appendJSONString(dst, c.Kind)
			member(false, "attribute", c.Attribute)
			member(false, "value", c.Value)
			if c.Groups != 0 {
				dst = append(dst, `,"groups":`...)
				dst = strconv.AppendInt(dst, int64(c.Groups), 10)
			}
			if c.Soft {
				dst = append(dst, `,"soft":true`...)
			}
			dst = append(dst, '}')
		}
		return append(dst, ']')
	}
	return dst
}
