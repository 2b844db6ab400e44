package external

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/schedsim/schedsim/sim"
)

// inEvent is one event of a reply; pointers tell a missing field.
type inEvent struct {
	Timestamp *float64        `json:"timestamp"`
	Type      *string         `json:"type"`
	Data      json.RawMessage `json:"data"`
	// exec is EXECUTE_JOB's data when quickReply read it.
	exec *quickExecute
}

func (e *inEvent) typeName() string {
	if e.Type == nil {
		return "no type"
	}
	return *e.Type
}

// decode reads an event's data strictly into v.
func decode(data json.RawMessage, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("data: %v", err)
	}
	return nil
}

// apply applies one decision now.
func (s *Scheduler) apply(c *sim.Context, ev inEvent) error {
	switch *ev.Type {
	case "EXECUTE_JOB":
		if ev.exec != nil {
			return s.execute(c, ev.exec.jobID, ev.exec.alloc)
		}
		var d struct {
			JobID *string `json:"job_id"`
			Alloc *string `json:"alloc"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.JobID == nil || d.Alloc == nil {
			return errors.New(`data needs "job_id" and "alloc"`)
		}
		return s.execute(c, *d.JobID, *d.Alloc)
	case "REJECT_JOB":
		var d struct {
			JobID *string `json:"job_id"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.JobID == nil {
			return errors.New(`data needs "job_id"`)
		}
		j, err := s.waiting(*d.JobID)
		if err != nil {
			return err
		}
		if err := c.Reject(j, "rejected by the external scheduler"); err != nil {
			return err
		}
		s.retire(j.PolicyState.(*jobState))
		return nil
	case "CALL_ME_LATER":
		var d struct {
			Timestamp *float64 `json:"timestamp"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.Timestamp == nil {
			return errors.New(`data needs "timestamp"`)
		}
		at, err := sim.CheckSeconds(*d.Timestamp)
		if err != nil {
			return fmt.Errorf("timestamp: %v", err)
		}
		if at <= c.Now() {
			return fmt.Errorf("asks to be called at %s s, which is not after now (%s s): a call in the past", at, c.Now())
		}
		s.calls[at]++
		c.WakeAt(at)
		return nil
	case "KILL_JOB":
		var d struct {
			JobIDs *[]string `json:"job_ids"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.JobIDs == nil {
			return errors.New(`data needs "job_ids"`)
		}
		return s.kill(c, *d.JobIDs)
	case "NOTIFY":
		var d struct {
			Type *string `json:"type"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.Type == nil {
			return errors.New(`data needs "type"`)
		}
		switch *d.Type {
		case "registration_finished", "continue_registration":
			return nil // dynamic registration is off: nothing waits for it
		}
		return fmt.Errorf("unknown notification %q (known: registration_finished, continue_registration)", *d.Type)
	case "QUERY":
		var d struct {
			Requests *map[string]json.RawMessage `json:"requests"`
		}
		if err := decode(ev.Data, &d); err != nil {
			return err
		}
		if d.Requests == nil {
			return errors.New(`data needs "requests"`)
		}
		answer := map[string]float64{}
		for k := range *d.Requests {
			if k != "consumed_energy" {
				return fmt.Errorf("unknown request %q (schedsim answers consumed_energy)", k)
			}
			answer[k] = s.energy
		}
		s.push(c.Now(), "ANSWER", answer)
		return nil
	case "SET_JOB_METADATA":
		return nil // metadata goes to Batsim's jobs.csv, which schedsim does not write
	case "SET_RESOURCE_STATE":
		return errors.New("schedsim does not let an external scheduler switch resources' power states; let the engine do it (--power-down)")
	case "REGISTER_JOB", "REGISTER_PROFILE", "CHANGE_JOB_STATE", "TO_JOB_MSG":
		return errors.New("dynamic jobs are disabled (dynamic-jobs-enabled is false in SIMULATION_BEGINS)")
	case "ANSWER":
		return errors.New("an answer to no query: schedsim asks none")
	}
	return fmt.Errorf("unknown event type %q", *ev.Type)
}

// waiting returns the waiting job of a Batsim id.
func (s *Scheduler) waiting(id string) (*sim.JobRun, error) {
	j := s.alive[id]
	switch {
	case j == nil && s.gone[id]:
		return nil, fmt.Errorf("job %q has already ended or was rejected", id)
	case j == nil:
		return nil, fmt.Errorf("unknown job %q", id)
	case j.Status != sim.Queued:
		return nil, fmt.Errorf("job %q is %s, not waiting", id, j.Status)
	}
	return j, nil
}

// execute starts job id on the resources of alloc.
func (s *Scheduler) execute(c *sim.Context, id, allocText string) error {
	j, err := s.waiting(id)
	if err != nil {
		return err
	}
	alloc, err := ParseIntervals(allocText, s.res.count())
	if err != nil {
		return fmt.Errorf("alloc: %v", err)
	}
	if want := s.res.asks(j); len(alloc) != want {
		return fmt.Errorf("alloc %q has %d resources; job %q asks for %d", allocText, len(alloc), id, want)
	}
	if r, holder := s.res.firstBusy(alloc); r >= 0 {
		return fmt.Errorf("alloc %q: resource %d (%s) is busy: job %q runs on it", allocText, r, s.res.names[r], holder)
	}
	if err := c.Start(j, s.res.nodes(alloc)); err != nil {
		return fmt.Errorf("alloc %q: the engine refuses it: %v", allocText, err)
	}
	st := j.PolicyState.(*jobState)
	st.alloc = alloc
	s.res.hold(alloc, id)
	return nil
}

// kill kills the running jobs of ids at once and acknowledges with their
// JOB_COMPLETED and one JOB_KILLED; a job that already ended is
// acknowledged without progress, as Batsim does.
func (s *Scheduler) kill(c *sim.Context, ids []string) error {
	progress := map[string]jobProgress{}
	var completed []jobCompleted
	for _, id := range ids {
		j := s.alive[id]
		if j == nil {
			if s.gone[id] {
				continue
			}
			return fmt.Errorf("unknown job %q", id)
		}
		if j.Status != sim.Running {
			return fmt.Errorf("job %q is %s: only a running job can be killed", id, j.Status)
		}
		st := j.PolicyState.(*jobState)
		ran := c.Now() - j.Start
		total := j.Remaining() + j.Restore()
		if err := c.Kill(j, "killed by the external scheduler"); err != nil {
			return err
		}
		completed = append(completed, s.completed(j, st))
		s.retire(st)
		p := 0.0
		if total > 0 {
			p = min(max(ran.Seconds()/total.Seconds(), 0), 1)
		}
		progress[id] = jobProgress{Profile: profileName(j.Remaining()), Progress: p}
	}
	for _, d := range completed {
		s.push(c.Now(), "JOB_COMPLETED", d)
	}
	s.push(c.Now(), "JOB_KILLED", jobKilled{JobIDs: ids, JobProgress: progress})
	return nil
}
