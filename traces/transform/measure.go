package transform

import (
	"sync/atomic"

	"github.com/schedsim/schedsim/sim"
)

// measurement decides which jobs are measured: those submitted from
// first + warm-up on and no later than last − cool-down, where first and
// last are the transformed stream's first and last submits. So warm-up
// leaves out exactly the jobs submitted before first + warm-up, and
// cool-down those submitted after last − cool-down.
//
// The last submit is only known at the end of the stream, so with a
// cool-down a job is held back until a job submitted at least cool-down
// after it has been read (it is measured) or the stream ends (it is not):
// the lookahead holds the jobs of one cool-down span, not the trace.
// Both ends are kept in atomics because the verdict is asked on the
// engine's goroutine while a prefetcher may be reading ahead; a job's
// verdict is settled before it is handed out and never changes.
type measurement struct {
	warmUp, coolDown sim.Time

	held []*sim.Job // read, not yet handed out
	head int        // held[head] is next
	end  error      // what ended the stream, once seen

	started atomic.Bool
	warmEnd atomic.Int64 // first submit + warm-up
	latest  atomic.Int64 // the latest submit read; the last once the stream ended
}

func newMeasurement(warmUp, coolDown sim.Time) *measurement {
	return &measurement{warmUp: warmUp, coolDown: coolDown}
}

// next hands out the next job of pull, once its verdict is settled.
func (m *measurement) next(pull func() (*sim.Job, error)) (*sim.Job, error) {
	if m.coolDown <= 0 {
		j, err := pull()
		if err == nil {
			m.saw(j)
		}
		return j, err
	}
	for {
		if m.head < len(m.held) {
			j := m.held[m.head]
			if m.end != nil || j.Submit+m.coolDown <= sim.Time(m.latest.Load()) {
				m.held[m.head] = nil
				m.head++
				if m.head == len(m.held) {
					m.held, m.head = m.held[:0], 0
				}
				return j, nil
			}
		} else if m.end != nil {
			return nil, m.end
		}
		j, err := pull()
		if err != nil {
			m.end = err
			continue
		}
		m.saw(j)
		if len(m.held) == cap(m.held) && m.head > 0 && m.head >= len(m.held)/2 {
			// Full, and half of it handed out: slide down instead of growing.
			m.held = append(m.held[:0], m.held[m.head:]...)
			m.head = 0
		}
		m.held = append(m.held, j)
	}
}

// saw notes a job read from the stream, in submit order.
func (m *measurement) saw(j *sim.Job) {
	if !m.started.Load() {
		m.warmEnd.Store(int64(j.Submit + m.warmUp))
		m.started.Store(true)
	}
	m.latest.Store(int64(j.Submit))
}

// measured reports the verdict of a handed-out job submitted at submit.
func (m *measurement) measured(submit sim.Time) bool {
	if submit < sim.Time(m.warmEnd.Load()) {
		return false
	}
	return m.coolDown <= 0 || submit+m.coolDown <= sim.Time(m.latest.Load())
}
