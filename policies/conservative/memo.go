package conservative

import "github.com/schedsim/schedsim/sim"

// shapeMemo remembers an unsuccessful count-based search, on the one-node
// profile or on the cluster totals (see moveOnPool), or on the nodes
// (shapeMemos): no window for a job of that shape, or of the same length
// needing more, with a slot no earlier, starts before lowest. Reservations
// made or moved since only take capacity, which cannot open a window;
// capacity given back before lowest + dur can, and clears the memo
// (scheduler.grew).
//
// A node-level search depends on how the need splits into tasks, not only
// on the total, so the exact memo also keys on the task amount (unit): more
// tasks of the same amount are a larger need. The totals memo has unit 0.
type shapeMemo struct {
	valid      bool
	res        int
	unit, need sim.Amount
	dur, start sim.Time
	lowest     sim.Time
}

// from is where a search for a job of this shape and slot start may
// begin: the memo's bound when it applies, else now.
func (m *shapeMemo) from(res int, unit, need sim.Amount, d, start, now sim.Time) sim.Time {
	if m.valid && m.res == res && m.unit == unit && need >= m.need && m.dur == d && start >= m.start {
		return max(now, m.lowest)
	}
	return now
}

// failed records a search over [from, before) that found no window.
func (m *shapeMemo) failed(res int, unit, need sim.Amount, d, start, from, before sim.Time) {
	*m = shapeMemo{valid: true, res: res, unit: unit, need: need, dur: d, start: start,
		lowest: max(from, min(before, start-d+1))}
}

// clearIfOpened clears the memo if capacity given back from `from` on can
// open a window it ruled out.
func (m *shapeMemo) clearIfOpened(from sim.Time) {
	if m.valid && from < m.lowest+m.dur {
		m.valid = false
	}
}

// shapeMemos keeps the failed node-level searches of the last few shapes:
// a queue interleaves several (users' bursts of identical jobs), which
// overwrote a single memo in turn. Each memo is a claim of its own, so a
// search may begin at the latest bound among those that apply. The
// count-based searches keep one memo: they are cheap enough that a loop
// over several would cost more than it saves.
type shapeMemos struct {
	m    [8]shapeMemo
	next int // the slot a new shape takes, round robin
}

// from is shapeMemo.from over the memos.
func (ms *shapeMemos) from(res int, unit, need sim.Amount, d, start, now sim.Time) sim.Time {
	from := now
	for i := range ms.m {
		from = max(from, ms.m[i].from(res, unit, need, d, start, now))
	}
	return from
}

// clearIfOpened is shapeMemo.clearIfOpened over the memos.
func (ms *shapeMemos) clearIfOpened(from sim.Time) {
	for i := range ms.m {
		ms.m[i].clearIfOpened(from)
	}
}

// failed records a failed search in place of the memo of the same shape
// if there is one.
func (ms *shapeMemos) failed(res int, unit, need sim.Amount, d, start, from, before sim.Time) {
	slot := -1
	for i := range ms.m {
		if m := &ms.m[i]; m.valid && m.res == res && m.unit == unit && m.need == need && m.dur == d {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot, ms.next = ms.next, (ms.next+1)%len(ms.m)
	}
	ms.m[slot].failed(res, unit, need, d, start, from, before)
}
