package external

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/sim"
)

// Options configure the external scheduler of one run.
type Options struct {
	// Transport reaches the scheduler (Dial).
	Transport Transport
	Cluster   *sim.Cluster
	// Pool shows the one node's processors as the resources (SWF's pool
	// model) instead of one resource per node.
	Pool bool
	// Workload names the trace in SIMULATION_BEGINS; jobs are w0!ID.
	Workload string
	// LastNodeEvent is the time of the run's last scheduled node event,
	// after which no_more_external_event_to_occur is sent; HasNodeEvents
	// says there are such events and no random ones.
	LastNodeEvent sim.Time
	HasNodeEvents bool
	// Transcript, when not nil, receives every message, one a line: "> "
	// to the scheduler, "< " from it.
	Transcript io.Writer
	// Process is the scheduler process schedsim started, if any: its
	// last output goes into error messages.
	Process *Process
}

// workloadID prefixes every job id, as Batsim names its first workload.
const workloadID = "w0"

// Scheduler is a sim.Scheduler whose decisions come from an external
// process over Batsim's protocol.
type Scheduler struct {
	opt   Options
	res   *resources
	alive map[string]*sim.JobRun // submitted to the scheduler, not ended
	gone  map[string]bool        // ended or rejected ids
	// pending are the events not yet sent; delayed the decisions whose
	// timestamp is still to come.
	pending   []event
	delayed   []delayedDecision
	calls     map[sim.Time]int // CALL_ME_LATER times, with how many asked for each
	busyUntil sim.Time         // the last reply's now: no request before it
	begun     bool
	noMore    bool // no_more_static_job_to_submit sent
	noEvents  bool // no_more_external_event_to_occur sent
	// energy is the consumed energy in J up to lastT; lastW is the draw
	// since.
	energy float64
	lastW  float64
	lastT  sim.Time
	// Messages counts the requests sent.
	Messages int64
	buf      []byte
	sent     []string // the event types of the last request
}

// jobState is the scheduler's record of a job, kept in JobRun.PolicyState.
type jobState struct {
	id    string
	alloc []int // resource ids while running
}

type delayedDecision struct {
	at    sim.Time
	name  string
	ev    inEvent
	reply []byte
}

// New returns the external scheduler of a run. The engine must keep its
// queue in arrival order (no Config.Less): new jobs are found at its tail.
func New(opt Options) (*Scheduler, error) {
	res, err := newResources(opt.Cluster, opt.Pool)
	if err != nil {
		return nil, err
	}
	return &Scheduler{opt: opt, res: res, alive: map[string]*sim.JobRun{}, gone: map[string]bool{}, calls: map[sim.Time]int{}}, nil
}

// Schedule tells the scheduler what happened since the last pass and
// applies its decisions.
func (s *Scheduler) Schedule(c *sim.Context) error {
	now := c.Now()
	s.energy += s.lastW * (now - s.lastT).Seconds()
	s.lastT = now
	if !s.begun {
		s.begun = true
		s.push(now, "SIMULATION_BEGINS", s.begins())
	}
	s.collect(c)
	if err := s.applyDue(c); err != nil {
		return err
	}
	for now >= s.busyUntil && len(s.pending) > 0 {
		if err := s.exchange(c); err != nil {
			return err
		}
	}
	if now < s.busyUntil {
		c.WakeAt(s.busyUntil)
	}
	s.lastW = c.PowerW()
	return nil
}

func (s *Scheduler) push(at sim.Time, typ string, data any) {
	s.pending = append(s.pending, event{Timestamp: seconds(at), Type: typ, Data: data})
}

// begins is SIMULATION_BEGINS's data.
func (s *Scheduler) begins() simulationBegins {
	b := simulationBegins{
		NbResources:         s.res.count(),
		NbComputeResources:  s.res.count(),
		AllowStorageSharing: true,
		Config: beginConfig{RedisHostname: "127.0.0.1", RedisPort: 6379, RedisPrefix: "default",
			ProfilesForwarded: true},
		ComputeResources: make([]computeResource, s.res.count()),
		StorageResources: []computeResource{},
		Workloads:        map[string]string{workloadID: s.opt.Workload},
		Profiles:         map[string]struct{}{workloadID: {}},
	}
	for i, name := range s.res.names {
		props := map[string]string{}
		if !s.res.pool {
			for k, v := range s.opt.Cluster.Nodes[i].Attributes {
				props[k] = v
			}
		}
		b.ComputeResources[i] = computeResource{ID: i, Name: name, State: "idle", Properties: props, ZoneProperties: map[string]string{}}
	}
	return b
}

// collect turns what happened at this instant into events: jobs that
// ended or were stopped, node changes, new jobs, requested calls and
// notifications.
func (s *Scheduler) collect(c *sim.Context) {
	now := c.Now()
	for _, j := range c.Ended() {
		st, ok := j.PolicyState.(*jobState)
		if !ok {
			continue
		}
		s.push(now, "JOB_COMPLETED", s.completed(j, st))
		if j.Status == sim.Queued { // stopped by a node event and queued again: a new submission
			s.retire(st)
			st.id = fmt.Sprintf("%s!%s#%d", workloadID, j.Job.ID, j.Restarts)
			s.alive[st.id] = j
			s.push(now, "JOB_SUBMITTED", s.submitted(j, st))
			continue
		}
		s.retire(st)
	}
	s.nodeChanges(c)
	q := c.Queue()
	first := len(q)
	for first > 0 && q[first-1].PolicyState == nil {
		first--
	}
	for _, j := range q[first:] {
		st := &jobState{id: workloadID + "!" + j.Job.ID}
		j.PolicyState = st
		s.alive[st.id] = j
		s.push(now, "JOB_SUBMITTED", s.submitted(j, st))
	}
	if !s.noMore && c.AllSubmitted() {
		s.noMore = true
		s.push(now, "NOTIFY", notify{Type: "no_more_static_job_to_submit"})
	}
	if s.opt.HasNodeEvents && !s.noEvents && now >= s.opt.LastNodeEvent {
		s.noEvents = true
		s.push(now, "NOTIFY", notify{Type: "no_more_external_event_to_occur"})
	}
	for n := s.calls[now]; n > 0; n-- {
		s.push(now, "REQUESTED_CALL", empty{})
	}
	delete(s.calls, now)
}

// completed is JOB_COMPLETED's data for a job that stopped, and frees its
// resources.
func (s *Scheduler) completed(j *sim.JobRun, st *jobState) jobCompleted {
	state, code := stateSuccess, 0
	switch {
	case j.Status == sim.Queued:
		state, code = stateFailed, -1
	case j.Status == sim.Killed && j.Reason == "walltime exceeded":
		state, code = stateWalltime, -1
	case j.Status == sim.Killed && (strings.HasPrefix(j.Reason, "node failure") || strings.HasPrefix(j.Reason, "node drain")):
		state, code = stateFailed, -1
	case j.Status == sim.Killed:
		state, code = stateKilled, -1
	}
	d := jobCompleted{JobID: st.id, JobState: state, ReturnCode: code, Alloc: FormatIntervals(st.alloc)}
	s.res.release(st.alloc)
	st.alloc = nil
	return d
}

// retire forgets a job id: the job ended, was rejected, or is submitted
// again under a new id.
func (s *Scheduler) retire(st *jobState) {
	delete(s.alive, st.id)
	s.gone[st.id] = true
}

func (s *Scheduler) submitted(j *sim.JobRun, st *jobState) jobSubmitted {
	runtime := j.Remaining()
	d := jobSubmitted{JobID: st.id,
		Job:     jobDesc{ID: st.id, Subtime: seconds(j.Job.Submit), Res: s.res.asks(j), Profile: profileName(runtime)},
		Profile: delayProfile{Type: "delay", Delay: seconds(runtime)},
	}
	if j.Job.Walltime >= 0 {
		w := seconds(j.Job.Walltime - j.Saved)
		d.Job.Walltime = &w
	}
	return d
}

// nodeChanges notifies nodes that went down or came back, as Batsim's
// machine events.
func (s *Scheduler) nodeChanges(c *sim.Context) {
	changed := c.NodeChanges()
	if len(changed) == 0 {
		return
	}
	var down, up []int
	for _, n := range changed {
		ids := []int{int(n)}
		if s.res.pool {
			ids = make([]int, s.res.count())
			for i := range ids {
				ids[i] = i
			}
		}
		if c.NodeOnline(int(n)) {
			up = append(up, ids...)
		} else {
			down = append(down, ids...)
		}
	}
	for _, g := range []struct {
		typ string
		ids []int
	}{{"event_machine_unavailable", down}, {"event_machine_available", up}} {
		if len(g.ids) > 0 {
			sort.Ints(g.ids)
			g.ids = dedup(g.ids)
			s.push(c.Now(), "NOTIFY", notify{Type: g.typ, Resources: FormatIntervals(g.ids)})
		}
	}
}

func dedup(ids []int) []int {
	out := ids[:0]
	for i, id := range ids {
		if i == 0 || id != ids[i-1] {
			out = append(out, id)
		}
	}
	return out
}

// exchange sends the pending events and applies the reply's decisions.
func (s *Scheduler) exchange(c *sim.Context) error {
	now := c.Now()
	req, err := appendMessage(s.buf[:0], seconds(now), s.pending)
	if err != nil {
		return err
	}
	s.buf = req
	// The events are named only if something goes wrong.
	sent := s.sent[:0]
	for _, e := range s.pending {
		sent = append(sent, e.Type)
	}
	s.sent = sent
	desc := func() string { return describe(now, sent) }
	s.pending = s.pending[:0]
	s.Messages++
	s.log("> ", req)
	reply, err := s.opt.Transport.Exchange(req)
	if err != nil {
		if errors.Is(err, errExited) && s.opt.Process != nil {
			<-s.opt.Process.Exited()
			err = fmt.Errorf("the scheduler process (pid %d) exited (%s) before it replied", s.opt.Process.Pid(), s.opt.Process.Status())
		}
		return s.fail("the reply to "+desc(), err, req)
	}
	s.log("< ", reply)
	name := func() string { return "the reply to " + desc() }
	nowS, events, ok := quickReply(reply)
	if !ok {
		var m struct {
			Now    *float64   `json:"now"`
			Events *[]inEvent `json:"events"`
		}
		if err := json.Unmarshal(reply, &m); err != nil {
			return s.fail(name(), fmt.Errorf("malformed JSON: %v", err), reply)
		}
		if m.Now == nil {
			return s.fail(name(), errors.New(`no "now" field`), reply)
		}
		if m.Events == nil {
			return s.fail(name(), errors.New(`no "events" array`), reply)
		}
		nowS, events = *m.Now, *m.Events
	}
	replyNow, err := sim.CheckSeconds(nowS)
	if err != nil {
		return s.fail(name(), fmt.Errorf("now: %v", err), reply)
	}
	if replyNow < now {
		return s.fail(name(), fmt.Errorf("now=%s s is in the past: the message it answers is at now=%s s", replyNow, now), reply)
	}
	last := now
	for i, ev := range events {
		evName := func() string { return fmt.Sprintf("event %d (%s) of %s", i, ev.typeName(), name()) }
		if ev.Type == nil || ev.Timestamp == nil || ev.Data == nil {
			return s.fail(evName(), errors.New(`an event needs "timestamp", "type" and "data"`), reply)
		}
		at, err := sim.CheckSeconds(*ev.Timestamp)
		if err != nil {
			return s.fail(evName(), fmt.Errorf("timestamp: %v", err), reply)
		}
		switch {
		case at < now:
			return s.fail(evName(), fmt.Errorf("timestamp %s s is in the past: the message it answers is at now=%s s", at, now), reply)
		case at > replyNow:
			return s.fail(evName(), fmt.Errorf("timestamp %s s is after the reply's now=%s s", at, replyNow), reply)
		case at < last:
			return s.fail(evName(), fmt.Errorf("timestamp %s s is before the previous event's %s s: events must be in time order", at, last), reply)
		}
		last = at
		if at > now {
			s.delayed = append(s.delayed, delayedDecision{at: at, name: evName(), ev: ev, reply: reply})
			c.WakeAt(at)
			continue
		}
		if err := s.apply(c, ev); err != nil {
			return s.fail(evName(), err, reply)
		}
	}
	s.busyUntil = replyNow
	return nil
}

// applyDue applies the decisions whose timestamp has come.
func (s *Scheduler) applyDue(c *sim.Context) error {
	k := 0
	for _, d := range s.delayed {
		if d.at > c.Now() {
			s.delayed[k] = d
			k++
			continue
		}
		if err := s.apply(c, d.ev); err != nil {
			return s.fail(d.name, err, d.reply)
		}
	}
	s.delayed = s.delayed[:k]
	return nil
}

// End sends SIMULATION_ENDS at the end of the run and waits for the
// scheduler's acknowledgement.
func (s *Scheduler) End(now sim.Time) error {
	s.pending = append(s.pending[:0], event{Timestamp: seconds(now), Type: "SIMULATION_ENDS", Data: empty{}})
	req, err := appendMessage(nil, seconds(now), s.pending)
	if err != nil {
		return err
	}
	s.pending = s.pending[:0]
	s.Messages++
	s.log("> ", req)
	reply, err := s.opt.Transport.Exchange(req)
	if err != nil {
		return s.fail("the reply to SIMULATION_ENDS", err, req)
	}
	s.log("< ", reply)
	var m struct {
		Now *float64 `json:"now"`
	}
	if err := json.Unmarshal(reply, &m); err != nil || m.Now == nil {
		return s.fail("the reply to SIMULATION_ENDS", errors.New("malformed JSON or no \"now\""), reply)
	}
	return nil
}

func (s *Scheduler) fail(event string, err error, msg []byte) error {
	pe := &ProtocolError{Event: event, Err: err, Message: string(msg)}
	if s.opt.Process != nil {
		pe.Tail = s.opt.Process.Tail()
	}
	return pe
}

func (s *Scheduler) log(prefix string, msg []byte) {
	if s.opt.Transcript == nil {
		return
	}
	fmt.Fprintf(s.opt.Transcript, "%s%s\n", prefix, msg)
}

// describe names a request in error messages: its time and event types.
func describe(now sim.Time, sent []string) string {
	var types []string
	for _, t := range sent {
		if len(types) == 0 || types[len(types)-1] != t {
			types = append(types, t)
		}
	}
	return fmt.Sprintf("the message of t=%s s (%s)", now, strings.Join(types, ", "))
}
