package sim

import "fmt"

// This file is the engine's side of node events: nodes going down and
// coming back, drains and their deadlines, and jobs stopped and queued
// again.

// NodeObserver is an Observer that also hears node events and requeues.
// The engine calls these on observers that implement it.
type NodeObserver interface {
	// NodeChanged is called when node n goes down or up, or is drained
	// or undrained.
	NodeChanged(now Time, n int, down, drained bool)
	// Requeued is called when running job j is stopped and queued again
	// (j.Requeued says why: relocation, evacuation, preemption); lost is
	// the work thrown away.
	Requeued(now Time, j *JobRun, lost Time)
}

// nodeState is what the engine knows of each node beyond its free amounts.
type nodeState struct {
	down, drained []bool
	drainGen      []uint32 // bumped by undrain: a pending deadline is stale
	changed       []int32  // nodes whose state changed since the last pass
	failures      *failureStreams
}

func (s *nodeState) init(nodes int) {
	s.down = make([]bool, nodes)
	s.drained = make([]bool, nodes)
	s.drainGen = make([]uint32, nodes)
}

// online reports whether node n may take new tasks.
func (e *Engine) online(n int) bool {
	return e.nodes.down == nil || (!e.nodes.down[n] && !e.nodes.drained[n])
}

// scheduleNodeEvents resolves the configured events and failure model into
// the event heap. A name that is no node is an error.
func (e *Engine) scheduleNodeEvents() error {
	if len(e.cfg.NodeEvents) == 0 && e.cfg.Failures == nil {
		return nil
	}
	e.nodes.init(len(e.cluster.Nodes))
	index := make(map[string]int32, len(e.cluster.Nodes))
	for i, n := range e.cluster.Nodes {
		index[n.Name] = int32(i)
	}
	for i, ev := range e.cfg.NodeEvents {
		n, ok := index[ev.Node]
		if !ok {
			return fmt.Errorf("node event %d (%s at %s s): no node named %q", i+1, ev.Kind, ev.At, ev.Node)
		}
		if e.cluster.IsParent(int(n)) {
			return fmt.Errorf("node event %d: %s is a level of the hierarchy, not a node that runs tasks", i+1, ev.Node)
		}
		e.pushNode(ev.At, n, ev.Kind, ev.Deadline)
	}
	if m := e.cfg.Failures; m != nil {
		if err := m.Validate(); err != nil {
			return err
		}
		e.nodes.failures = newFailureStreams(*m, len(e.cluster.Nodes))
		for n := range e.cluster.Nodes {
			if !e.cluster.IsParent(n) {
				e.pushNode(e.nodes.failures.next(n, true), int32(n), NodeFail, 0)
			}
		}
	}
	return nil
}

func (e *Engine) pushNode(at Time, n int32, k NodeEventKind, deadline Time) {
	e.events.push(event{at: at, kind: evNode, seq: e.evSeq, node: n, nodeKind: k, deadline: deadline})
	e.evSeq++
}

// applyNode applies one node event.
func (e *Engine) applyNode(ev event) {
	n := int(ev.node)
	s := &e.nodes
	switch ev.nodeKind {
	case NodeFail:
		if s.down[n] {
			return
		}
		s.down[n] = true
		e.stopJobsOn(n, "relocation")
		e.powerNodeDown(n)
		e.power.setDown(n, true)
		if s.failures != nil {
			e.pushNode(e.now+s.failures.next(n, false), ev.node, NodeRecover, 0)
		}
	case NodeRecover:
		if !s.down[n] {
			return
		}
		s.down[n] = false
		e.power.setDown(n, false)
		if e.pd != nil {
			e.armIdle(n)
		}
		if s.failures != nil {
			e.pushNode(e.now+s.failures.next(n, true), ev.node, NodeFail, 0)
		}
	case NodeDrain:
		s.drained[n] = true
		s.drainGen[n]++
		if ev.deadline > e.now {
			e.events.push(event{at: ev.deadline, kind: evDeadline, seq: e.evSeq, node: ev.node, attempt: s.drainGen[n]})
			e.evSeq++
		}
	case NodeUndrain:
		s.drained[n] = false
		s.drainGen[n]++
	}
	e.nodeChanged(n)
}

// applyDeadline moves the jobs still on a drained node.
func (e *Engine) applyDeadline(ev event) {
	n := int(ev.node)
	if !e.nodes.drained[n] || e.nodes.drainGen[n] != ev.attempt {
		return // undrained (or drained again) since
	}
	e.stopJobsOn(n, "evacuation")
}

func (e *Engine) nodeChanged(n int) {
	e.updateAvail(int32(n), nil)
	e.nodes.changed = append(e.nodes.changed, int32(n))
	for _, o := range e.observers {
		if no, ok := o.(NodeObserver); ok {
			no.NodeChanged(e.now, n, e.nodes.down[n], e.nodes.drained[n])
		}
	}
}

// stopJobsOn stops every running job with a task on node n and queues it
// again, for reason why.
func (e *Engine) stopJobsOn(n int, why string) {
	// Collect first: requeue reorders e.running.
	var hit []*JobRun
	for _, j := range e.running {
		for _, m := range j.Nodes {
			if int(m) == n {
				hit = append(hit, j)
				break
			}
		}
	}
	for _, j := range hit {
		if limit := e.cfg.MaxRestarts; limit > 0 && j.nodeStops >= limit {
			e.giveUp(j, why)
			continue
		}
		j.nodeStops++
		e.requeue(j, why)
	}
}

// giveUp kills running job j where a node event would have stopped it
// once more than Config.MaxRestarts allows. It ends as a walltime kill
// does: its run so far counts, its nodes are freed.
func (e *Engine) giveUp(j *JobRun, why string) {
	j.attempt++   // its pending finish event is stale…
	e.jobEvents-- // …and no longer keeps the run going
	j.finishing = Killed
	j.gaveUp = true
	cause := "node failure"
	if why == "evacuation" {
		cause = "node drain"
	}
	j.Reason = fmt.Sprintf("%s after %d restarts", cause, j.nodeStops)
	e.finish(j)
}

// requeue stops running job j and queues it again. Work since the last
// checkpoint is lost; with no checkpoint interval, all of it.
func (e *Engine) requeue(j *JobRun, why string) {
	e.stop(j, why)
	e.enqueue(j)
}

// stop ends j's run and records what it keeps and loses, leaving it
// Queued but not in the queue.
func (e *Engine) stop(j *JobRun, why string) {
	e.release(j, j.Nodes)
	j.powered = false
	e.removeRunning(j)
	ran := max(e.now-j.Start, 0) // a run still waiting for its nodes to wake ran nothing
	saved := Time(0)
	if c := j.Job.CheckpointInterval; c > 0 {
		saved = min(ran/c*c, j.Remaining())
	}
	j.Saved += saved
	lost := ran - saved
	j.LostWork += lost
	j.Restarts++
	j.attempt++   // its pending finish event is stale…
	e.jobEvents-- // …and no longer keeps the run going
	j.Status = Queued
	j.Requeued = why
	j.Reason = ""
	e.ended = append(e.ended, j)
	for _, o := range e.observers {
		if no, ok := o.(NodeObserver); ok {
			no.Requeued(e.now, j, lost)
		}
	}
}

// preempt stops running job j for a higher-priority one; it goes back to
// the queue when the scheduling pass ends.
func (e *Engine) preempt(j *JobRun) error {
	if j.Status != Running {
		return fmt.Errorf("job %s: cannot preempt: it is %s", j.Job.ID, j.Status)
	}
	e.stop(j, "preemption")
	e.preempted = append(e.preempted, j)
	return nil
}

// onlyNodeEvents reports whether nothing but node events, power events and
// wakes is left: no job to arrive, wait or end. Node events alone do not
// keep a run going (a failure model never runs out of them), nor do power
// events (idle nodes switching off after the last job).
func (e *Engine) onlyNodeEvents() bool {
	return (e.nodes.down != nil || e.pd != nil) && e.jobEvents == 0 && len(e.queue) == 0 && len(e.running) == 0
}
