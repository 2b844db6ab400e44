package native

// The first JSON Lines decoder, built on encoding/json's Token API. It was
// correct but slow (about 140 allocations per record); it stays here as the
// reference the hand-written scanner is fuzzed against (FuzzJSONLScanner).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/schedsim/schedsim/sim"

	"github.com/schedsim/schedsim/traces"
)

// record decodes one JSON object into rec, keeping the order of the keys of
// request.
func (d *jsonlDecoder) refRecord(rec *record, text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return d.refSyntax(err)
	}
	if tok != json.Delim('{') {
		return d.bad("", errNotObject)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		key, _ := tok.(string) // the decoder only yields strings as keys
		f, ok := lookupField(key)
		if !ok {
			return fatalError{&traces.ParseError{File: d.name, Line: d.line, Field: key, Err: errUnknown}}
		}
		if rec.seen[f] {
			return d.bad(key, errTwice)
		}
		if f == fRequest {
			if err := d.refRequest(rec, dec); err != nil {
				return err
			}
			rec.seen[f] = true
			continue
		}
		if f.structured() {
			if err := d.refTrait(rec, dec, f); err != nil {
				return err
			}
			rec.seen[f] = true
			continue
		}
		tok, err = dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		var text string
		switch v := tok.(type) {
		case nil:
			continue // null: absent
		case string:
			if f.kind() != kString {
				return d.bad(key, wantErr(f))
			}
			text = v
		case json.Number:
			if f.kind() != kNumber {
				return d.bad(key, wantErr(f))
			}
			text = string(v)
		case bool:
			if f.kind() != kBool {
				return d.bad(key, wantErr(f))
			}
			text = "false"
			if v {
				text = "true"
			}
		default: // an array or object
			return d.bad(key, wantErr(f))
		}
		if err := rec.setText(f, text); err != nil {
			return d.bad(key, err)
		}
		rec.seen[f] = true
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return d.refSyntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return d.refSyntax(err)
		}
		return d.bad("", errTrailing)
	}
	if f, err := rec.finish(); err != nil {
		return d.bad(f.String(), err)
	}
	return nil
}

// request decodes the request object: resource name → number; null means
// absent.
func (d *jsonlDecoder) refRequest(rec *record, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return d.refSyntax(err)
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('{') {
		return d.bad("request", errWantObject)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		res, _ := tok.(string)
		f := "request." + res
		tok, err = dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		switch v := tok.(type) {
		case nil:
			continue
		case json.Number:
			if err := rec.addRequest(res, string(v)); err != nil {
				return d.bad(f, err)
			}
		default:
			return d.bad(f, errWantNumber)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return d.refSyntax(err)
	}
	return nil
}

// refSyntax turns an encoding/json error into a bad record.
func (d *jsonlDecoder) refSyntax(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &traces.ParseError{File: d.name, Line: d.line, Err: fmt.Errorf("bad JSON: %w", err)}
}

// refTrait decodes a structured trait field with the Token API.
func (d *jsonlDecoder) refTrait(rec *record, dec *json.Decoder, f field) error {
	name := f.String()
	bad := func(path string, err error) error { return d.bad(path, err) }
	tok, err := dec.Token()
	if err != nil {
		return d.refSyntax(err)
	}
	if tok == nil {
		return nil
	}
	switch f.kind() {
	case kDeps:
		if err := d.refDeps(rec, dec, tok); err != nil {
			return err
		}
	case kStrings:
		if tok != json.Delim('[') {
			return bad(name, errWantStrings)
		}
		var list []string
		for i := 0; dec.More(); i++ {
			tok, err := dec.Token()
			if err != nil {
				return d.refSyntax(err)
			}
			v, ok := tok.(string)
			switch {
			case !ok:
				return bad(itemPath(f, i), errWantString)
			case v == "":
				return bad(itemPath(f, i), errEmpty)
			}
			list = append(list, v)
		}
		if len(list) > 0 {
			if f == fImmunities {
				rec.traits().Immunities = list
			} else {
				rec.traits().AversionGroups = list
			}
		}
	case kLabels:
		if tok != json.Delim('{') {
			return bad(name, errWantLabels)
		}
		var labels []sim.Label
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return d.refSyntax(err)
			}
			key, _ := tok.(string)
			path := name + "." + key
			if tok, err = dec.Token(); err != nil {
				return d.refSyntax(err)
			}
			if tok == nil {
				continue
			}
			v, ok := tok.(string)
			if !ok {
				return bad(path, errWantString)
			}
			if key == "" {
				return bad(path, errKeyName)
			}
			if slices.ContainsFunc(labels, func(l sim.Label) bool { return l.Key == key }) {
				return bad(path, errTwice)
			}
			labels = append(labels, sim.Label{Key: key, Value: v})
		}
		if len(labels) > 0 {
			if f == fSelector {
				rec.traits().Selector = labels
			} else {
				rec.traits().Labels = labels
			}
		}
	case kList:
		if tok != json.Delim('[') {
			return bad(name, errWantList)
		}
		var tols []sim.Toleration
		var cons []sim.Constraint
		for i := 0; dec.More(); i++ {
			tok, err := dec.Token()
			if err != nil {
				return d.refSyntax(err)
			}
			item := name + "[" + strconv.Itoa(i) + "]"
			if tok != json.Delim('{') {
				return bad(item, errWantItem)
			}
			keys := tolerationKeys
			if f == fConstraints {
				keys = constraintKeys
			}
			vals := map[string]any{}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return d.refSyntax(err)
				}
				key, _ := tok.(string)
				path := item + "." + key
				if !slices.Contains(keys, key) {
					return fatalError{&traces.ParseError{File: d.name, Line: d.line, Field: path, Err: errUnknown}}
				}
				if _, ok := vals[key]; ok {
					return bad(path, errTwice)
				}
				if tok, err = dec.Token(); err != nil {
					return d.refSyntax(err)
				}
				if tok == nil {
					continue
				}
				// The value's type and range, as the scanner checks them.
				switch key {
				case "groups":
					n, ok := tok.(json.Number)
					if !ok {
						return bad(path, errWantNumber)
					}
					g, err := strconv.ParseInt(string(n), 10, 0)
					if err != nil {
						return bad(path, errInteger)
					}
					vals[key] = int(g)
				case "soft":
					b, ok := tok.(bool)
					if !ok {
						return bad(path, errWantBool)
					}
					vals[key] = b
				default:
					v, ok := tok.(string)
					if !ok {
						return bad(path, errWantString)
					}
					if f == fTolerations && key == "key" && v == "" {
						return bad(path, errEmpty)
					}
					if key == "effect" && v != "" && v != "NoSchedule" && v != "PreferNoSchedule" {
						return bad(path, errEffect)
					}
					vals[key] = v
				}
			}
			if _, err := dec.Token(); err != nil { // the closing '}'
				return d.refSyntax(err)
			}
			if _, ok := vals[keys[0]]; !ok {
				return bad(item+"."+keys[0], errMissing)
			}
			s := func(k string) string { v, _ := vals[k].(string); return v }
			if f == fTolerations {
				tols = append(tols, sim.Toleration{Key: s("key"), Value: s("value"), Effect: s("effect")})
				continue
			}
			g, _ := vals["groups"].(int)
			soft, _ := vals["soft"].(bool)
			c := sim.Constraint{Kind: s("kind"), Attribute: s("attribute"), Value: s("value"), Groups: g, Soft: soft}
			if sub, err := checkConstraint(c); err != nil {
				return bad(item+sub, err)
			}
			cons = append(cons, c)
		}
		if len(tols) > 0 {
			rec.traits().Tolerations = tols
		}
		if len(cons) > 0 {
			rec.traits().Constraints = cons
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']' or '}'
		return d.refSyntax(err)
	}
	return nil
}

// refDeps decodes depends_on with the Token API, tok being its first token.
func (d *jsonlDecoder) refDeps(rec *record, dec *json.Decoder, tok json.Token) error {
	if tok != json.Delim('[') {
		return d.bad("depends_on", errWantDeps)
	}
	var deps []sim.Dependency
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		item := "depends_on[" + strconv.Itoa(i) + "]"
		if id, ok := tok.(string); ok {
			if id == "" {
				return d.bad(item, errEmpty)
			}
			deps = append(deps, sim.Dependency{ID: id})
			continue
		}
		if tok != json.Delim('{') {
			return d.bad(item, errWantDep)
		}
		var dep sim.Dependency
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return d.refSyntax(err)
			}
			key, _ := tok.(string)
			path := item + "." + key
			if !slices.Contains(depKeys, key) {
				return fatalError{&traces.ParseError{File: d.name, Line: d.line, Field: path, Err: errUnknown}}
			}
			if seen[key] {
				return d.bad(path, errTwice)
			}
			if tok, err = dec.Token(); err != nil {
				return d.refSyntax(err)
			}
			if tok == nil {
				continue
			}
			switch key {
			case "think_s":
				n, ok := tok.(json.Number)
				if !ok {
					return d.bad(path, errWantNumber)
				}
				t, err := parseTime(string(n))
				if err == nil && t < 0 {
					err = errNegTime
				}
				if err != nil {
					return d.bad(path, err)
				}
				dep.Think = t
			default:
				v, ok := tok.(string)
				if !ok {
					return d.bad(path, errWantString)
				}
				if key == "job" {
					if v == "" {
						return d.bad(path, errEmpty)
					}
					dep.ID = v
				} else if v == "any" || v == "success" {
					dep.AfterAny = v == "any"
				} else {
					return d.bad(path, errCondition)
				}
			}
			seen[key] = true
		}
		if _, err := dec.Token(); err != nil { // the closing '}'
			return d.refSyntax(err)
		}
		if !seen["job"] {
			return d.bad(item+".job", errMissing)
		}
		deps = append(deps, dep)
	}
	if len(deps) > 0 {
		rec.job.DependsOn = deps
	}
	return nil
}
