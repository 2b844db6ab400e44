package google

import (
	"fmt"
	"io"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// This file turns machine_events and machine_attributes into the cluster:
// one node per machine, named m<machine ID>, in machine ID order, with the
// capacity of its first ADD (an empty capacity is taken from the first
// later event that gives it; a machine never given one is left out); and
// the node events of its life: REMOVE → fail, a later ADD → recover, and a
// machine first added after time 0 is down from time 0 until then. UPDATE
// (a capacity change) is not modelled: nodes keep their first capacity.
// Attributes: the platform (attribute "platform"), in 2019 the switch
// ("switch"), and every machine_attributes name with its first value (a
// deleted record and later changes are ignored).

// MachineStats counts what the cluster reading did not carry over.
type MachineStats struct {
	Machines   int // nodes made
	NoCapacity int // machines left out: no event gave their capacity
	Updates    int // UPDATE events (capacity changes), ignored
	Events     int // node events made (fail, recover)
}

type machine struct {
	id         int64
	cpu, mem   float64
	has        uint8
	platform   string
	switchID   string
	attrs      map[string]string
	up, seen   bool
	transition []sim.NodeEvent // fail/recover, node name filled in at the end
}

// readCluster reads the machine tables to their end.
func readCluster(events *merger[machineRow], attrs *merger[attrRow], scale Scale) ([]sim.NodeSpec, []sim.NodeEvent, MachineStats, error) {
	var st MachineStats
	ms := map[int64]*machine{}
	for {
		e, err := events.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, st, err
		}
		if e.time == sim.Forever {
			continue // after the window
		}
		m := ms[e.id]
		if m == nil {
			m = &machine{id: e.id}
			ms[e.id] = m
		}
		// Capacity: the first value each resource is given.
		if missing := e.has &^ m.has; missing&hasCPU != 0 {
			m.cpu, m.has = e.cpu, m.has|hasCPU
		}
		if missing := e.has &^ m.has; missing&hasMem != 0 {
			m.mem, m.has = e.mem, m.has|hasMem
		}
		if m.platform == "" {
			m.platform = e.platform
		}
		if m.switchID == "" {
			m.switchID = e.switchID
		}
		switch e.kind {
		case machineAdd:
			switch {
			case !m.seen:
				m.seen, m.up = true, true
				if e.time > 0 {
					m.transition = append(m.transition, sim.NodeEvent{At: 0, Kind: sim.NodeFail}, sim.NodeEvent{At: e.time, Kind: sim.NodeRecover})
				}
			case !m.up:
				m.up = true
				m.transition = append(m.transition, sim.NodeEvent{At: e.time, Kind: sim.NodeRecover})
			}
		case machineRemove:
			if m.seen && m.up {
				m.up = false
				m.transition = append(m.transition, sim.NodeEvent{At: e.time, Kind: sim.NodeFail})
			}
		case machineUpdate:
			st.Updates++
		}
	}
	if attrs != nil {
		for {
			a, err := attrs.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, nil, st, err
			}
			m := ms[a.id]
			if m == nil || a.deleted || a.time == sim.Forever {
				continue
			}
			if m.attrs == nil {
				m.attrs = map[string]string{}
			}
			if _, set := m.attrs[a.name]; !set {
				m.attrs[a.name] = a.value
			}
		}
	}
	ids := make([]int64, 0, len(ms))
	for id, m := range ms {
		if m.seen {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var nodes []sim.NodeSpec
	var nevs []sim.NodeEvent
	need := uint8(0)
	if scale.CPU > 0 {
		need |= hasCPU
	}
	if scale.Mem > 0 {
		need |= hasMem
	}
	for _, id := range ids {
		m := ms[id]
		if m.has&need != need {
			st.NoCapacity++
			continue
		}
		name := fmt.Sprintf("m%d", id)
		attrs := m.attrs
		if attrs == nil {
			attrs = map[string]string{}
		}
		if m.platform != "" {
			attrs["platform"] = m.platform
		}
		if m.switchID != "" {
			attrs["switch"] = m.switchID
		}
		nodes = append(nodes, sim.NodeSpec{Name: name, Capacity: scale.capacity(m.cpu, m.mem), Attributes: attrs})
		for _, ev := range m.transition {
			ev.Node = name
			nevs = append(nevs, ev)
		}
	}
	sort.SliceStable(nevs, func(i, j int) bool { return nevs[i].At < nevs[j].At })
	st.Machines, st.Events = len(nodes), len(nevs)
	return nodes, nevs, st, nil
}
