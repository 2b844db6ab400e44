package google

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// The 2019 tables (clusterdata-2019, "Google cluster-usage traces v3",
// clusterdata_trace_format_v3.proto): one JSON object a line, as BigQuery
// exports the tables. Field names are the proto's. BigQuery writes INT64
// columns as JSON strings ("time": "600000000"), so integers are accepted
// as numbers or strings; enums are their numbers; absent and null fields
// are unset. Fields this reader does not use are ignored.

// jsonObject is one decoded line: field name → raw value.
type jsonObject map[string]json.RawMessage

func decodeObject(line []byte) (jsonObject, *fieldError) {
	var o jsonObject
	if err := json.Unmarshal(line, &o); err != nil {
		return nil, &fieldError{err: fmt.Errorf("bad JSON: %v", err)}
	}
	if o == nil {
		return nil, &fieldError{err: fmt.Errorf("bad JSON: want an object, got null")}
	}
	return o, nil
}

func isNull(raw json.RawMessage) bool { return raw == nil || bytes.Equal(raw, []byte("null")) }

// scalarText returns a JSON string's text, or a number's literal text.
func scalarText(raw json.RawMessage) (string, bool) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	if len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return string(raw), true
	}
	return "", false
}

// intField reads field name as an integer in [lo, hi]; ok is false when
// absent or null, and required makes that an error.
func (o jsonObject) int(name string, lo, hi int64, required bool) (v int64, ok bool, ferr *fieldError) {
	raw := o[name]
	if isNull(raw) {
		if required {
			return 0, false, badField(name, "missing (mandatory)")
		}
		return 0, false, nil
	}
	return parseJSONInt(name, raw, lo, hi)
}

func parseJSONInt(name string, raw json.RawMessage, lo, hi int64) (int64, bool, *fieldError) {
	s, ok := scalarText(raw)
	if !ok {
		return 0, false, badField(name, "not an integer: %s", raw)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, badField(name, "not an integer: %s", raw)
	}
	if v < lo || v > hi {
		return 0, false, badField(name, "%d out of range %d–%d", v, lo, hi)
	}
	return v, true, nil
}

func (o jsonObject) time() (sim.Time, *fieldError) {
	v, _, ferr := o.int("time", 0, math.MaxInt64, true)
	return sim.Time(v), ferr
}

func (o jsonObject) str(name string) (string, *fieldError) {
	raw := o[name]
	if isNull(raw) {
		return "", nil
	}
	s, ok := scalarText(raw)
	if !ok {
		return "", badField(name, "not a string: %s", raw)
	}
	return s, nil
}

func (o jsonObject) bool(name string) (bool, *fieldError) {
	raw := o[name]
	if isNull(raw) {
		return false, nil
	}
	switch string(raw) {
	case "true", `"true"`:
		return true, nil
	case "false", `"false"`:
		return false, nil
	}
	return false, badField(name, "not a boolean: %s", raw)
}

// resources reads a Resources message {cpus, memory} into cpu and mem.
func (o jsonObject) resources(name string, cpu, mem *float64, has *uint8) *fieldError {
	raw := o[name]
	if isNull(raw) {
		return nil
	}
	sub, ferr := decodeObject(raw)
	if ferr != nil {
		return badField(name, "not an object: %s", raw)
	}
	for i, f := range []struct {
		key string
		dst *float64
	}{{"cpus", cpu}, {"memory", mem}} {
		r := sub[f.key]
		if isNull(r) {
			continue
		}
		s, ok := scalarText(r)
		if !ok {
			return badField(name+"."+f.key, "not a number: %s", r)
		}
		v, err := parseFloat(s)
		if err != nil {
			return &fieldError{field: name + "." + f.key, err: err}
		}
		*f.dst = v
		*has |= hasCPU << i
	}
	return nil
}

// common reads the fields instance and collection events share.
func (o jsonObject) common(r *row) *fieldError {
	var ferr *fieldError
	if r.time, ferr = o.time(); ferr != nil {
		return ferr
	}
	k, _, ferr := o.int("type", 0, int64(len(kinds2019)-1), true)
	if ferr != nil {
		return ferr
	}
	r.kind = kinds2019[k]
	if r.job, _, ferr = o.int("collection_id", 0, math.MaxInt64, true); ferr != nil {
		return ferr
	}
	if v, ok, ferr := o.int("scheduling_class", 0, 3, false); ferr != nil {
		return ferr
	} else if ok {
		r.class, r.has = int8(v), r.has|hasClass
	}
	if v, ok, ferr := o.int("priority", 0, maxInt32, false); ferr != nil {
		return ferr
	} else if ok {
		r.priority, r.has = int32(v), r.has|hasPriority
	}
	ct, _, ferr := o.int("collection_type", 0, 1, false)
	if ferr != nil {
		return ferr
	}
	r.allocSet = ct == 1
	if r.alloc, _, ferr = o.int("alloc_collection_id", 0, math.MaxInt64, false); ferr != nil {
		return ferr
	}
	return nil
}

// instanceEvent2019 parses an instance_events record.
func instanceEvent2019(line []byte) (r row, ferr *fieldError) {
	o, ferr := decodeObject(line)
	if ferr != nil {
		return r, ferr
	}
	r.table = tabTask
	if ferr = o.common(&r); ferr != nil {
		return r, ferr
	}
	idx, _, ferr := o.int("instance_index", 0, maxInt32, true)
	if ferr != nil {
		return r, ferr
	}
	r.index = int32(idx)
	if _, _, ferr = o.int("machine_id", -1, math.MaxInt64, false); ferr != nil {
		return r, ferr
	}
	if ferr = o.resources("resource_request", &r.cpu, &r.mem, &r.has); ferr != nil {
		return r, ferr
	}
	raw := o["constraint"]
	if isNull(raw) {
		return r, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return r, badField("constraint", "not a list: %s", raw)
	}
	r.has |= hasConstraints
	for i, item := range list {
		c, ferr := constraint2019(item)
		if ferr != nil {
			at := fmt.Sprintf("constraint[%d]", i)
			if ferr.field != "" {
				at += "." + ferr.field
			}
			ferr.field = at
			return r, ferr
		}
		r.cons = append(r.cons, c)
	}
	return r, nil
}

// constraint2019 parses one MachineConstraint {name, value, relation};
// its error's field is relative to it.
func constraint2019(raw json.RawMessage) (sim.Constraint, *fieldError) {
	o, ferr := decodeObject(raw)
	if ferr != nil {
		return sim.Constraint{}, badField("", "not an object: %s", raw)
	}
	name, ferr := o.str("name")
	if ferr != nil {
		return sim.Constraint{}, ferr
	}
	value, ferr := o.str("value")
	if ferr != nil {
		return sim.Constraint{}, ferr
	}
	op, _, ferr := o.int("relation", 0, 7, false) // absent: the proto's default, EQUAL
	if ferr != nil {
		return sim.Constraint{}, ferr
	}
	c, badValue, err := constraintOf(op, name, value)
	if err != nil {
		at := "name"
		if badValue {
			at = "value"
		}
		return c, &fieldError{field: at, err: err}
	}
	return c, nil
}

// collectionEvent2019 parses a collection_events record.
func collectionEvent2019(line []byte) (r row, ferr *fieldError) {
	o, ferr := decodeObject(line)
	if ferr != nil {
		return r, ferr
	}
	r.table = tabJob
	if ferr = o.common(&r); ferr != nil {
		return r, ferr
	}
	if r.user, ferr = o.str("user"); ferr != nil {
		return r, ferr
	}
	if v, ok, ferr := o.int("max_per_machine", 0, maxInt32, false); ferr != nil {
		return r, ferr
	} else if ok {
		r.diffMachine, r.has = v == 1, r.has|hasMaxPerMachine
	}
	return r, nil
}

// machineEvent2019 parses a machine_events record (type 1 ADD, 2 REMOVE,
// 3 UPDATE; 0 is EVENT_TYPE_UNKNOWN, a bad record).
func machineEvent2019(line []byte) (m machineRow, ferr *fieldError) {
	o, ferr := decodeObject(line)
	if ferr != nil {
		return m, ferr
	}
	if m.time, ferr = o.time(); ferr != nil {
		return m, ferr
	}
	if m.id, _, ferr = o.int("machine_id", 0, math.MaxInt64, true); ferr != nil {
		return m, ferr
	}
	k, _, ferr := o.int("type", 1, 3, true)
	if ferr != nil {
		return m, ferr
	}
	m.kind = uint8(k - 1)
	if m.switchID, ferr = o.str("switch_id"); ferr != nil {
		return m, ferr
	}
	if m.platform, ferr = o.str("platform_id"); ferr != nil {
		return m, ferr
	}
	return m, o.resources("capacity", &m.cpu, &m.mem, &m.has)
}

// machineAttr2019 parses a machine_attributes record.
func machineAttr2019(line []byte) (a attrRow, ferr *fieldError) {
	o, ferr := decodeObject(line)
	if ferr != nil {
		return a, ferr
	}
	if a.time, ferr = o.time(); ferr != nil {
		return a, ferr
	}
	if a.id, _, ferr = o.int("machine_id", 0, math.MaxInt64, true); ferr != nil {
		return a, ferr
	}
	if a.name, ferr = o.str("name"); ferr != nil {
		return a, ferr
	}
	if a.name == "" {
		return a, badField("name", "missing (mandatory)")
	}
	if a.value, ferr = o.str("value"); ferr != nil {
		return a, ferr
	}
	a.deleted, ferr = o.bool("deleted")
	return a, ferr
}
