package metrics

import "github.com/schedsim/schedsim/sim"

// nodePower follows each node's power state under power-down
// (sim.PowerObserver) for the nodes table and the summary: time asleep and
// switching, and the switches made. It is nil-free: the arrays are made
// at the first change, so runs without power-down pay nothing.
type nodePower struct {
	state []sim.PowerState
	since []sim.Time
	// in[n*numStates+s] is node n's closed time in state s (s ≠ on).
	in        []sim.Time
	offs, ons []int64 // switches off (on → asleep) and on (asleep → on) begun
	notOn     int64   // nodes not on now: the timeseries' nodes_asleep
}

const numStates = 4 // sim.PowerOn … sim.PowerSwitchingOn

func (p *nodePower) init(nodes int) {
	if p.state == nil {
		p.state = make([]sim.PowerState, nodes)
		p.since = make([]sim.Time, nodes)
		p.in = make([]sim.Time, nodes*numStates)
		p.offs = make([]int64, nodes)
		p.ons = make([]int64, nodes)
	}
}

// set records node n entering state s at now.
func (p *nodePower) set(now sim.Time, n int, s sim.PowerState) {
	old := p.state[n]
	if old != sim.PowerOn {
		p.in[n*numStates+int(old)] += now - p.since[n]
		p.notOn--
	}
	if s != sim.PowerOn {
		p.notOn++
	}
	switch {
	case old == sim.PowerOn && s != sim.PowerOn:
		p.offs[n]++
	case old == sim.PowerAsleep && s != sim.PowerAsleep:
		p.ons[n]++
	}
	p.state[n], p.since[n] = s, now
}

// down resets a failed node to on, as the engine does (its time down is
// counted apart).
func (p *nodePower) down(now sim.Time, n int) {
	if p.state != nil && p.state[n] != sim.PowerOn {
		p.set(now, n, sim.PowerOn)
	}
}

// time is node n's time in state s up to end.
func (p *nodePower) time(n int, s sim.PowerState, end sim.Time) sim.Time {
	if p.state == nil {
		return 0
	}
	t := p.in[n*numStates+int(s)]
	if p.state[n] == s && end > p.since[n] {
		t += end - p.since[n]
	}
	return t
}

// powerTotals sums the nodes' time asleep and switching, and their
// switches, up to end.
func (u *nodeUsage) powerTotals(end sim.Time) (asleep, switching sim.Time, offs, ons int64) {
	p := &u.power
	for n := range u.active {
		asleep += p.time(n, sim.PowerAsleep, end)
		switching += p.time(n, sim.PowerSwitchingOff, end) + p.time(n, sim.PowerSwitchingOn, end)
		if p.state != nil {
			offs += p.offs[n]
			ons += p.ons[n]
		}
	}
	return
}
