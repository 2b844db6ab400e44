package batsim

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// maxPlatformHosts bounds the compute hosts one platform may expand to, so
// that a typo in a radical ("0-1000000000") fails instead of eating memory.
const maxPlatformHosts = 1 << 20

// ReadPlatform reads the SimGrid platform at path and returns its compute
// hosts as nodes, in document order. maxHosts > 0 keeps only the first
// maxHosts compute hosts (Batsim's --mmax); 0 or less keeps them all.
// Errors are *traces.ParseError naming the file, line and attribute or
// property.
func ReadPlatform(path string, maxHosts int) ([]sim.NodeSpec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePlatform(path, data, maxHosts)
}

// ParsePlatform is ReadPlatform on bytes already in memory; name is the file
// name used in errors.
func ParsePlatform(name string, data []byte, maxHosts int) ([]sim.NodeSpec, error) {
	if maxHosts < 0 {
		maxHosts = 0
	}
	p := &platformParser{file: name, maxHosts: maxHosts, names: map[string]int{}}
	if err := p.parse(data); err != nil {
		return nil, err
	}
	if len(p.nodes) == 0 {
		return nil, &traces.ParseError{File: name, Err: errors.New("no compute hosts (every host is a master or storage host)")}
	}
	return p.nodes, nil
}

// Host roles (Batsim's "role" property). Only compute nodes become nodes.
const (
	roleMaster  = "master"
	roleStorage = "storage"
)

// masterName is the host Batsim uses as its master when no host has the
// master role (its historical -m default).
const masterName = "master_host"

type elemKind uint8

const (
	elemOther elemKind = iota
	elemZone
	elemHost
	elemCluster
)

// frame is one open element.
type frame struct {
	kind  elemKind
	line  int
	attrs map[string]string
	props []property
	zone  string // id of the innermost zone holding this element
}

type property struct {
	id, value string
	line      int
}

type platformParser struct {
	file     string
	maxHosts int
	names    map[string]int // host name → line, to catch duplicates
	compute  int            // compute hosts met so far, kept or not
	nodes    []sim.NodeSpec
}

func (p *platformParser) parse(data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var stack []*frame
	sawRoot := false
	for {
		line, _ := dec.InputPos() // where the next token starts
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return &traces.ParseError{File: p.file, Line: se.Line, Err: fmt.Errorf("bad XML: %s", se.Msg)}
			}
			l, _ := dec.InputPos()
			return &traces.ParseError{File: p.file, Line: l, Err: fmt.Errorf("bad XML: %v", err)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			f := &frame{line: line, attrs: attrMap(t.Attr)}
			var parent *frame
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
				f.zone = parent.zone
			} else {
				if sawRoot {
					return &traces.ParseError{File: p.file, Line: line, Err: errors.New("more than one root element")}
				}
				sawRoot = true
				if t.Name.Local != "platform" {
					return &traces.ParseError{File: p.file, Line: line, Err: fmt.Errorf("not a SimGrid platform: the root element is <%s>, not <platform>", t.Name.Local)}
				}
			}
			switch t.Name.Local {
			case "zone", "AS":
				f.kind = elemZone
				f.zone = f.attrs["id"]
			case "host":
				f.kind = elemHost
			case "cluster":
				f.kind = elemCluster
			case "cabinet":
				// SimGrid 3.x: hosts named prefix+i+suffix, no properties.
				if err := p.addCluster(f, "cabinet"); err != nil {
					return err
				}
			case "prop":
				if parent != nil && (parent.kind == elemHost || parent.kind == elemCluster) {
					id, ok := f.attrs["id"]
					if !ok || id == "" {
						return &traces.ParseError{File: p.file, Line: line, Field: "prop", Err: errors.New("a property has no id")}
					}
					parent.props = append(parent.props, property{id: id, value: f.attrs["value"], line: line})
				}
			}
			stack = append(stack, f)
		case xml.EndElement:
			if len(stack) == 0 { // the decoder checks nesting; be safe anyway
				return &traces.ParseError{File: p.file, Line: line, Err: errors.New("bad XML: unexpected end element")}
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch f.kind {
			case elemHost:
				if err := p.addHost(f); err != nil {
					return err
				}
			case elemCluster:
				if err := p.addCluster(f, "cluster"); err != nil {
					return err
				}
			}
		}
	}
	if !sawRoot {
		return &traces.ParseError{File: p.file, Err: errors.New("not a SimGrid platform: no <platform> element")}
	}
	if len(stack) > 0 {
		return &traces.ParseError{File: p.file, Line: stack[len(stack)-1].line, Err: errors.New("bad XML: element never closed")}
	}
	return nil
}

// hostTemplate is what the hosts of one <host> or <cluster> share.
type hostTemplate struct {
	node    sim.NodeSpec // everything but the name
	compute bool         // false for master and storage hosts
}

// addHost adds one <host>.
func (p *platformParser) addHost(f *frame) error {
	name := f.attrs["id"]
	if name == "" {
		return &traces.ParseError{File: p.file, Line: f.line, Field: "id", Err: errors.New("a host has no id")}
	}
	tpl, err := p.template(f, "host "+strconv.Quote(name))
	if err != nil {
		return err
	}
	return p.add(name, f.line, tpl)
}

// addCluster expands a <cluster> (or <cabinet>) into its hosts
// prefix+i+suffix for every i of its radical.
func (p *platformParser) addCluster(f *frame, elem string) error {
	what := elem
	if id := f.attrs["id"]; id != "" {
		what = elem + " " + strconv.Quote(id)
	}
	ranges, count, err := parseRadical(f.attrs["radical"])
	if err != nil {
		return &traces.ParseError{File: p.file, Line: f.line, Field: "radical", Err: fmt.Errorf("%s: %v", what, err)}
	}
	tpl, err := p.template(f, what)
	if err != nil {
		return err
	}
	if tpl.compute && p.maxHosts == 0 && len(p.nodes)+count > maxPlatformHosts {
		return &traces.ParseError{File: p.file, Line: f.line, Field: "radical", Err: fmt.Errorf("%s: more than %d compute hosts", what, maxPlatformHosts)}
	}
	prefix, suffix := f.attrs["prefix"], f.attrs["suffix"]
	for _, r := range ranges {
		for i := r.lo; i <= r.hi; i++ {
			if tpl.compute && p.maxHosts > 0 && p.compute >= p.maxHosts {
				return nil // every later compute host would be dropped
			}
			if err := p.add(prefix+strconv.Itoa(i)+suffix, f.line, tpl); err != nil {
				return err
			}
		}
	}
	return nil
}

// add records one host: a node when it is a compute host that --max-hosts keeps.
func (p *platformParser) add(name string, line int, tpl *hostTemplate) error {
	if first, dup := p.names[name]; dup {
		return &traces.ParseError{File: p.file, Line: line, Field: "id", Err: fmt.Errorf("host %q already defined on line %d", name, first)}
	}
	p.names[name] = line
	if !tpl.compute || name == masterName {
		return nil
	}
	p.compute++
	if p.maxHosts > 0 && p.compute > p.maxHosts {
		return nil
	}
	if len(p.nodes) >= maxPlatformHosts {
		return &traces.ParseError{File: p.file, Line: line, Err: fmt.Errorf("more than %d compute hosts", maxPlatformHosts)}
	}
	n := tpl.node
	n.Name = name
	n.Capacity = append([]sim.Quantity(nil), tpl.node.Capacity...)
	n.Attributes = make(map[string]string, len(tpl.node.Attributes))
	for k, v := range tpl.node.Attributes {
		n.Attributes[k] = v
	}
	p.nodes = append(p.nodes, n)
	return nil
}

// Power properties: the current SimGrid names and the older ones.
const (
	propWattage    = "wattage_per_state"
	propWatt       = "watt_per_state"
	propWattageOff = "wattage_off"
	propWattOff    = "watt_off"
)

// template reads what a <host> or <cluster> says about each of its hosts.
func (p *platformParser) template(f *frame, what string) (*hostTemplate, error) {
	bad := func(line int, field string, err error) error {
		return &traces.ParseError{File: p.file, Line: line, Field: field, Err: fmt.Errorf("%s: %v", what, err)}
	}
	props := map[string]property{}
	for _, pr := range f.props {
		props[pr.id] = pr // the last definition wins, as in SimGrid
	}
	role := props["role"].value
	tpl := &hostTemplate{compute: role != roleMaster && role != roleStorage}

	cores := 1
	if s, ok := f.attrs["core"]; ok {
		c, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || c < 1 {
			return nil, bad(f.line, "core", fmt.Errorf("%q is not a positive number of cores", s))
		}
		cores = c
	}
	pstate := 0
	if s, ok := f.attrs["pstate"]; ok {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 0 {
			return nil, bad(f.line, "pstate", fmt.Errorf("%q is not a power state index", s))
		}
		pstate = v
	}

	attrs := map[string]string{}
	if f.zone != "" {
		attrs["zone"] = f.zone
	}
	if f.kind == elemCluster {
		if id := f.attrs["id"]; id != "" {
			attrs["cluster"] = id
		}
	}
	speedAttr, ok := f.attrs["speed"]
	if !ok {
		speedAttr, ok = f.attrs["power"] // DTD 3
	}
	var speeds []string
	if ok {
		speeds = splitList(speedAttr, ",")
		if pstate >= len(speeds) {
			return nil, bad(f.line, "pstate", fmt.Errorf("power state %d but only %d speeds", pstate, len(speeds)))
		}
		attrs["speed"] = speeds[pstate]
	}
	for _, pr := range f.props {
		switch pr.id {
		case propWattage, propWatt, propWattageOff, propWattOff:
		default:
			attrs[pr.id] = pr.value
		}
	}

	power := sim.PowerModel{Resource: "host"}
	watts, ok := props[propWattage]
	if !ok {
		watts, ok = props[propWatt]
	}
	if ok {
		idle, maxW, err := pstateWatts(watts.value, pstate)
		if err != nil {
			return nil, bad(watts.line, watts.id, err)
		}
		power.IdleW, power.MaxW = idle, maxW
	}
	off, ok := props[propWattageOff]
	if !ok {
		off, ok = props[propWattOff]
	}
	if ok {
		v := strings.TrimSpace(off.value)
		if w, err := strconv.ParseFloat(v, 64); err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return nil, bad(off.line, off.id, fmt.Errorf("%q is not a number of watts", off.value))
		}
		attrs["wattage_off"] = v
		power.OffW, _ = strconv.ParseFloat(v, 64)
	}
	if sp, ok := props[propSleep]; ok {
		if err := sleepStates(&power, sp.value, watts.value, speeds); err != nil {
			return nil, bad(sp.line, sp.id, err)
		}
	}

	tpl.node = sim.NodeSpec{
		Capacity:   []sim.Quantity{{Resource: "host", Amount: sim.Units(1)}, {Resource: "cpu", Amount: sim.Units(int64(cores))}},
		Attributes: attrs,
		Power:      power,
	}
	return tpl, nil
}

// pstateWatts reads one power state of a watt(age)_per_state value: a
// comma-separated list with one entry per power state, each entry
// "Idle:AllCores" or "Idle:Epsilon:AllCores" (SimGrid's host energy plugin).
// It returns Idle and AllCores: the draw of the idle host and of the host
// with every core busy.
func pstateWatts(value string, pstate int) (idle, allCores float64, err error) {
	states := splitList(value, ",")
	if pstate >= len(states) {
		return 0, 0, fmt.Errorf("power state %d but only %d power states listed", pstate, len(states))
	}
	parts := splitList(states[pstate], ":")
	if len(parts) != 2 && len(parts) != 3 {
		return 0, 0, fmt.Errorf("power state %d is %q, want Idle:AllCores or Idle:Epsilon:AllCores", pstate, states[pstate])
	}
	for _, s := range parts {
		w, err := strconv.ParseFloat(s, 64)
		if err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return 0, 0, fmt.Errorf("power state %d: %q is not a number of watts", pstate, s)
		}
	}
	idle, _ = strconv.ParseFloat(parts[0], 64)
	allCores, _ = strconv.ParseFloat(parts[len(parts)-1], 64)
	if idle > allCores {
		return 0, 0, fmt.Errorf("power state %d: the idle host draws %g W, more than with every core busy (%g W)", pstate, idle, allCores)
	}
	return idle, allCores, nil
}

// radicalRange is one "lo-hi" (or "n") piece of a cluster radical.
type radicalRange struct{ lo, hi int }

// parseRadical reads "0-31" or "0-3,5,8-9" and counts the hosts.
func parseRadical(s string) ([]radicalRange, int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, 0, errors.New("missing")
	}
	var out []radicalRange
	count := 0
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		loS, hiS, isRange := strings.Cut(part, "-")
		if !isRange {
			hiS = loS
		}
		lo, err1 := strconv.Atoi(strings.TrimSpace(loS))
		hi, err2 := strconv.Atoi(strings.TrimSpace(hiS))
		if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi > math.MaxInt32 {
			return nil, 0, fmt.Errorf("%q is not a number or a range lo-hi", part)
		}
		if hi-lo >= maxPlatformHosts || count+hi-lo+1 > maxPlatformHosts {
			return nil, 0, fmt.Errorf("more than %d hosts", maxPlatformHosts)
		}
		count += hi - lo + 1
		out = append(out, radicalRange{lo, hi})
	}
	return out, count, nil
}

// splitList splits s on sep and trims each piece.
func splitList(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func attrMap(attrs []xml.Attr) map[string]string {
	m := make(map[string]string, len(attrs))
	for _, a := range attrs {
		m[a.Name.Local] = a.Value
	}
	return m
}
