package seqmap

// Spread and Slack bound the window: it grows to hold a new key only
// while it is at most Spread·entries + Slack slots long.
const (
	Spread = 4
	Slack  = 1024
)

// Map maps int64 keys to values of V. The zero Map is empty and ready.
type Map[V any] struct {
	win  []slot[V] // win[i] holds key base+i
	base int64
	head int // win[:head] are empty: the front, not yet compacted
	n    int // entries in win
	far  map[int64]V
	// farLo and farHi bound the keys in far (loosely: deletes do not
	// tighten them), so that a new key past them skips the lookup.
	farLo, farHi int64
}

type slot[V any] struct {
	v  V
	ok bool
}

// Len is the number of entries.
func (m *Map[V]) Len() int { return m.n + len(m.far) }

// Get returns the value of key k and whether it is there.
func (m *Map[V]) Get(k int64) (V, bool) {
	if i := k - m.base; k >= m.base && i < int64(len(m.win)) {
		if s := &m.win[i]; s.ok {
			return s.v, true
		}
	}
	// Outside the window, or in a slot the window grew over while the
	// key was kept far.
	if len(m.far) == 0 || k < m.farLo || k > m.farHi {
		var zero V
		return zero, false
	}
	v, ok := m.far[k]
	return v, ok
}

// Put sets the value of key k.
func (m *Map[V]) Put(k int64, v V) {
	if len(m.win) == 0 && m.n == 0 && k >= 0 {
		m.base, m.head = k, 0 // an empty window starts at the first key
		m.win = m.win[:0]
	}
	i := k - m.base
	if k < 0 || k < m.base || i < int64(m.head) {
		m.putFar(k, v) // behind the window's front (empty by definition)
		return
	}
	if i >= int64(len(m.win)) {
		if !m.slide(k) {
			m.putFar(k, v)
			return
		}
		m.grow(int(k-m.base) + 1)
		i = k - m.base // growing may have moved the base
	}
	s := &m.win[i]
	if !s.ok {
		s.ok = true
		m.n++
		m.dropFar(k) // a window that grew over a key kept far
	}
	s.v = v
}

// slide reports whether the window may grow to hold key k, a key past
// its end: when k is less than Spread·(entries + 1) + Slack slots from the
// front. Beyond that, a key within Slack of the end is the next in line:
// the oldest entries (long-lived jobs among ended ones) move to the map
// and the front advances until it fits. A key further ahead is an outlier
// and goes to the map, leaving the window as it is.
func (m *Map[V]) slide(k int64) bool {
	fits := func() bool { return k-m.base-int64(m.head) < int64(Spread*(m.n+1)+Slack) }
	if fits() {
		return true
	}
	if k-m.base-int64(len(m.win)) > Slack && m.n > 0 {
		return false
	}
	for !fits() {
		if m.n == 0 { // emptied by the moves: start again at k
			m.win, m.base, m.head = m.win[:0], k, 0
			return true
		}
		s := &m.win[m.head]
		m.putFar(m.base+int64(m.head), s.v)
		*s = slot[V]{}
		m.n--
		m.trimFront()
	}
	return true
}

// Delete removes key k, if there.
func (m *Map[V]) Delete(k int64) {
	if i := k - m.base; k >= m.base && i < int64(len(m.win)) {
		if s := &m.win[i]; s.ok {
			*s = slot[V]{}
			m.n--
			m.trimFront()
			return
		}
	}
	m.dropFar(k)
}

// dropFar deletes k from far, looking only where it could be.
func (m *Map[V]) dropFar(k int64) {
	if len(m.far) > 0 && k >= m.farLo && k <= m.farHi {
		delete(m.far, k)
	}
}

func (m *Map[V]) putFar(k int64, v V) {
	if m.far == nil {
		m.far = map[int64]V{}
	}
	if len(m.far) == 0 {
		m.farLo, m.farHi = k, k
	}
	m.farLo, m.farHi = min(m.farLo, k), max(m.farHi, k)
	m.far[k] = v
}

// grow makes the window size slots long, in place when the capacity allows.
func (m *Map[V]) grow(size int) {
	if size <= cap(m.win) {
		m.win = m.win[:size] // past len the array is zero: slots shrink to zero when trimmed
		return
	}
	// Compact first: the empty front is dropped, not copied.
	live := m.win[m.head:]
	grown := make([]slot[V], size-m.head, max(2*(size-m.head), 64))
	copy(grown, live)
	m.base += int64(m.head)
	m.win, m.head = grown, 0
}

// trimFront advances past empty front slots, and compacts the window when
// its empty front is half of it.
func (m *Map[V]) trimFront() {
	for m.head < len(m.win) && !m.win[m.head].ok {
		m.head++
	}
	if m.head == len(m.win) {
		// Empty: the next key starts a new window.
		clear(m.win)
		m.win, m.head, m.base = m.win[:0], 0, 0
		return
	}
	if m.head > len(m.win)/2 {
		m.compact()
	}
}

// compact moves the live part of the window to the start of the slice.
func (m *Map[V]) compact() {
	live := len(m.win) - m.head
	copy(m.win, m.win[m.head:])
	clear(m.win[live:])
	m.win = m.win[:live]
	m.base += int64(m.head)
	m.head = 0
}
