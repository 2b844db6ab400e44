package sim

// The checker's side of power-down: it follows each node's power state
// from PowerChanged and checks that a node switches off only without
// tasks, that each switch lasts exactly its time, that the transitions
// follow on → switching off → asleep → switching on → on, and that a job's
// run begins exactly when its last node is on (so a job that wakes a
// sleeping node is delayed by exactly its switch-on time).

type checkPower struct {
	state []PowerState // nil until the first PowerChanged
	since []Time       // when the node entered its state
	tasks []int32      // tasks booked on the node
}

// allowed[from][to] lists the legal transitions.
var allowedPower = [numPowerStates][numPowerStates]bool{
	PowerOn:           {PowerSwitchingOff: true, PowerAsleep: true},
	PowerSwitchingOff: {PowerAsleep: true},
	PowerAsleep:       {PowerSwitchingOn: true, PowerOn: true},
	PowerSwitchingOn:  {PowerOn: true},
}

func (p *checkPower) init(nodes int) {
	if p.state == nil {
		p.state = make([]PowerState, nodes)
		p.since = make([]Time, nodes)
	}
}

// PowerChanged implements PowerObserver.
func (k *Checker) PowerChanged(now Time, n int, s PowerState) {
	p := &k.power
	p.init(len(k.cluster.Nodes))
	from, name := p.state[n], k.cluster.Nodes[n].Name
	pm := k.cluster.Nodes[n].Power
	if !allowedPower[from][s] {
		k.fail("t=%s s: node %s goes from %s to %s", now, name, from, s)
	}
	if from == PowerOn && p.tasks != nil && p.tasks[n] > 0 {
		k.fail("t=%s s: node %s switches off with %d tasks on it", now, name, p.tasks[n])
	}
	var want Time = -1
	switch from {
	case PowerSwitchingOff:
		want = pm.SwitchOff.Time
	case PowerSwitchingOn:
		want = pm.SwitchOn.Time
	}
	if want >= 0 && now-p.since[n] != want {
		k.fail("t=%s s: node %s left %s after %s s, its switch takes %s s", now, name, from, now-p.since[n], want)
	}
	p.state[n], p.since[n] = s, now
}

// readyAt is when node n, just given a task at now, is on.
func (p *checkPower) readyAt(k *Checker, now Time, n int) Time {
	if p.state == nil {
		return now
	}
	pm := k.cluster.Nodes[n].Power
	switch p.state[n] {
	case PowerSwitchingOff:
		return p.since[n] + pm.SwitchOff.Time + pm.SwitchOn.Time
	case PowerSwitchingOn:
		return p.since[n] + pm.SwitchOn.Time
	case PowerAsleep:
		k.fail("t=%s s: a task was placed on %s, asleep, without waking it", now, k.cluster.Nodes[n].Name)
	}
	return now
}

// started checks j's start against its nodes' power states and books its
// tasks.
func (p *checkPower) started(k *Checker, now Time, j *JobRun) {
	if p.tasks == nil {
		p.tasks = make([]int32, len(k.cluster.Nodes))
	}
	ready := now
	for _, n := range j.Nodes {
		ready = max(ready, p.readyAt(k, now, int(n)))
		p.tasks[n]++
	}
	if j.Start != ready {
		k.fail("job %s: started at %s s for a run beginning at %s s, but its nodes are on at %s s", j.Job.ID, now, j.Start, ready)
	}
}

// stopped unbooks j's tasks.
func (p *checkPower) stopped(j *JobRun) {
	for _, n := range j.Nodes {
		p.tasks[n]--
	}
}

// nodeDown forgets a failed node's power state: it is on when it returns.
func (p *checkPower) nodeDown(now Time, n int) {
	if p.state != nil {
		p.state[n], p.since[n] = PowerOn, now
	}
}
