package sim

// Power-down (Config.PowerDown), with Batsim's semantics for sleeping
// machines: a node idle for After switches off (PowerModel.SwitchOff: it
// lasts SwitchOff.Time at SwitchOff.W), then sleeps at OffW. Schedulers
// still see a sleeping node's capacity as free; a start that lands on it
// takes the capacity at once and wakes it (SwitchOn), and the job's run
// begins when its last node is on: JobRun.Start is then later than the
// decision, by the switch-on time (plus what is left of a switch-off under
// way, which is never cut short). Waits count to that start, and the job's
// dynamic draw and energy begin then. A node that fails leaves its power
// state (a down node draws nothing) and is on when it recovers.

// PowerDown enables switching idle nodes off.
type PowerDown struct {
	// After is how long a node must have no task before it switches off.
	// Nodes are on and idle at the first event of the run.
	After Time
}

// PowerState is a node's power state under power-down.
type PowerState uint8

// Power states. A node is on unless power-down put it to sleep.
const (
	PowerOn           PowerState = iota
	PowerSwitchingOff            // on its way to sleep, for SwitchOff.Time
	PowerAsleep                  // drawing OffW
	PowerSwitchingOn             // waking, for SwitchOn.Time
	numPowerStates
)

var powerStateNames = [...]string{"on", "switching_off", "asleep", "switching_on"}

func (s PowerState) String() string { return powerStateNames[s] }

// PowerObserver is an Observer that also hears power-state changes. The
// engine calls it on observers that implement it. A node that fails is on
// again when it recovers, without a call: observers reset it themselves
// on NodeChanged(down).
type PowerObserver interface {
	PowerChanged(now Time, n int, s PowerState)
}

// powerDownState is the engine's power-down bookkeeping, per node.
type powerDownState struct {
	after Time
	tasks []int32  // tasks placed on the node, running or waiting for it to wake
	gen   []uint32 // bumped to void a pending idle timer or transition
	until []Time   // end of the switch under way
	// wake marks a node switching off that a start landed on: it switches
	// on as soon as it is asleep.
	wake []bool
}

// power event kinds (event.power).
const (
	pwIdle  uint8 = iota // the node has been idle for After
	pwOff                // a switch-off ends: the node sleeps
	pwOn                 // a switch-on ends: the node is on
	pwBegin              // a job whose nodes had to wake begins its run
)

// initPowerDown arms every node's idle timer at the run's first event.
func (e *Engine) initPowerDown() {
	pd := e.cfg.PowerDown
	if pd == nil {
		return
	}
	N := len(e.cluster.Nodes)
	e.pd = &powerDownState{after: pd.After, tasks: make([]int32, N), gen: make([]uint32, N), until: make([]Time, N), wake: make([]bool, N)}
	e.power.state = make([]PowerState, N)
	if e.events.len() == 0 {
		return
	}
	saved := e.now
	e.now = e.events.nextAt()
	for n := range e.cluster.Nodes {
		if !e.cluster.IsParent(n) {
			e.armIdle(n)
		}
	}
	e.now = saved
}

func (e *Engine) pushPower(at Time, kind uint8, n int, gen uint32, j *JobRun) {
	e.events.push(event{at: at, kind: evPower, seq: e.evSeq, power: kind, node: int32(n), attempt: gen, job: j})
	e.evSeq++
}

// armIdle starts node n's idle timer now, voiding any earlier one.
func (e *Engine) armIdle(n int) {
	pd := e.pd
	pd.gen[n]++
	if e.power.state[n] != PowerOn || pd.tasks[n] > 0 || (e.nodes.down != nil && e.nodes.down[n]) {
		return
	}
	e.pushPower(e.now+pd.after, pwIdle, n, pd.gen[n], nil)
}

// setPower moves node n to state s and tells the observers.
func (e *Engine) setPower(n int, s PowerState) {
	e.power.setState(n, s)
	for _, o := range e.observers {
		if po, ok := o.(PowerObserver); ok {
			po.PowerChanged(e.now, n, s)
		}
	}
}

// applyPower applies one power event.
func (e *Engine) applyPower(ev event) {
	pd, n := e.pd, int(ev.node)
	if ev.power == pwBegin {
		if j := ev.job; j.Status == Running && j.attempt == ev.attempt && !j.powered {
			e.beginRun(j)
		}
		return
	}
	if ev.attempt != pd.gen[n] {
		return // voided: the node got a task, failed, or was re-armed
	}
	switch ev.power {
	case pwIdle:
		if e.power.state[n] == PowerOn && pd.tasks[n] == 0 {
			e.switchOff(n)
		}
	case pwOff:
		e.setPower(n, PowerAsleep)
		if pd.wake[n] {
			pd.wake[n] = false
			e.switchOn(n)
		}
	case pwOn:
		e.setPower(n, PowerOn)
		e.armIdle(n)
	}
}

func (e *Engine) switchOff(n int) {
	sw := e.cluster.Nodes[n].Power.SwitchOff
	if sw.Time == 0 {
		e.setPower(n, PowerAsleep)
		return
	}
	pd := e.pd
	pd.gen[n]++
	pd.until[n] = e.now + sw.Time
	e.setPower(n, PowerSwitchingOff)
	e.pushPower(pd.until[n], pwOff, n, pd.gen[n], nil)
}

func (e *Engine) switchOn(n int) {
	sw := e.cluster.Nodes[n].Power.SwitchOn
	pd := e.pd
	pd.gen[n]++
	if sw.Time == 0 {
		e.setPower(n, PowerOn)
		e.armIdle(n)
		return
	}
	pd.until[n] = e.now + sw.Time
	e.setPower(n, PowerSwitchingOn)
	e.pushPower(pd.until[n], pwOn, n, pd.gen[n], nil)
}

// readyAt returns when node n, on which a task was just placed, is on,
// waking it if it sleeps.
func (e *Engine) readyAt(n int) Time {
	pd := e.pd
	switch e.power.state[n] {
	case PowerAsleep:
		e.switchOn(n)
		if e.power.state[n] == PowerOn {
			return e.now
		}
		return pd.until[n]
	case PowerSwitchingOn:
		return pd.until[n]
	case PowerSwitchingOff:
		pd.wake[n] = true
		return pd.until[n] + e.cluster.Nodes[n].Power.SwitchOn.Time
	}
	return e.now
}

// placed counts a task placed on node n (sign +1) or gone (−1); a node
// left with none starts its idle timer.
func (e *Engine) placed(n int32, sign int32) {
	pd := e.pd
	pd.tasks[n] += sign // a pending idle timer finds tasks and does nothing
	if sign < 0 && pd.tasks[n] == 0 {
		e.armIdle(int(n))
	}
}

// beginRun adds j's tasks to the draw: its run has begun.
func (e *Engine) beginRun(j *JobRun) {
	for _, n := range j.Nodes {
		e.power.changed(int(n), j.req, 1)
	}
	j.powered = true
}

// powerNodeDown forgets node n's power state as it fails: down, it draws
// nothing; it will be on when it recovers.
func (e *Engine) powerNodeDown(n int) {
	if e.pd == nil {
		return
	}
	e.pd.gen[n]++
	e.pd.wake[n] = false
	e.power.setState(n, PowerOn)
}
