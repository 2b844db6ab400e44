package seqmap

import (
	"math/rand/v2"
	"testing"
)

// A Map behaves as a Go map under random puts, gets and deletes of keys
// that come and go roughly in order, with long-lived keys pinning the
// window, keys far ahead or behind, negative keys and overwrites; and its
// window stays within Spread·(the most entries it held) + Slack.
func TestMapMatchesGoMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 20 {
		var m Map[int]
		want := map[int64]int{}
		next := int64(rng.IntN(1 << 20))
		var live []int64
		peak := 0
		for step := range 200_000 {
			r := rng.IntN(100)
			switch {
			case r < 45: // a new key, in order
				k := next
				next += int64(1 + rng.IntN(3))
				m.Put(k, step)
				want[k] = step
				live = append(live, k)
			case r < 85 && len(live) > 0: // an end, mostly among the oldest
				i := rng.IntN(min(len(live), 64))
				if rng.IntN(50) == 0 {
					i = rng.IntN(len(live)) // now and then, any
				}
				k := live[i]
				live = append(live[:i], live[i+1:]...)
				m.Delete(k)
				delete(want, k)
			case r < 90: // far ahead, behind or negative
				k := []int64{next + int64(rng.IntN(1<<16)), next - int64(rng.IntN(1<<20)), -1 - int64(rng.IntN(100))}[rng.IntN(3)]
				m.Put(k, step)
				want[k] = step
				live = append(live, k)
			case r < 95 && len(live) > 0: // overwrite
				k := live[rng.IntN(len(live))]
				m.Put(k, -step)
				want[k] = -step
			default: // a lookup of anything
				k := next - int64(rng.IntN(1<<12))
				v, ok := m.Get(k)
				w, wok := want[k]
				if ok != wok || v != w {
					t.Fatalf("trial %d step %d: Get(%d) = %d %v, want %d %v", trial, step, k, v, ok, w, wok)
				}
			}
			peak = max(peak, m.n)
			if len(m.win)-m.head > Spread*(peak+1)+Slack {
				t.Fatalf("trial %d step %d: window %d slots, at most %d entries so far", trial, step, len(m.win)-m.head, peak)
			}
		}
		if m.Len() != len(want) {
			t.Fatalf("trial %d: Len %d, want %d", trial, m.Len(), len(want))
		}
		for k, w := range want {
			if v, ok := m.Get(k); !ok || v != w {
				t.Fatalf("trial %d: Get(%d) = %d %v, want %d", trial, k, v, ok, w)
			}
		}
		for k := range want {
			m.Delete(k)
		}
		if m.Len() != 0 || len(m.far) != 0 {
			t.Fatalf("trial %d: %d left after deleting everything", trial, m.Len())
		}
	}
}

// Keys in order, each deleted soon after: everything stays in the window.
func TestMapSequentialStaysDense(t *testing.T) {
	var m Map[int32]
	for k := int64(1000); k < 1_000_000; k++ {
		m.Put(k, int32(k))
		if k >= 1100 {
			m.Delete(k - 100)
		}
	}
	if len(m.far) != 0 || m.Len() != 100 {
		t.Errorf("%d entries, %d of them in the map", m.Len(), len(m.far))
	}
	if v, ok := m.Get(999_999); !ok || v != 999_999 {
		t.Errorf("Get(999999) = %d %v", v, ok)
	}
}

// One key in ten lives on while the others end soon after they start:
// the window slides on, the long-lived keys move to the map, and every
// key is still found.
func TestMapSlidesPastLongLivedKeys(t *testing.T) {
	var m Map[int64]
	for k := int64(0); k < 200_000; k++ {
		m.Put(k, k)
		if old := k - 50; old >= 0 && old%10 != 0 {
			m.Delete(old)
		}
	}
	if w := len(m.win) - m.head; w > Spread*(m.n+1)+Slack {
		t.Errorf("window of %d slots for %d entries", w, m.n)
	}
	if m.Len() != 20_000+45 {
		t.Errorf("Len %d, want %d", m.Len(), 20_000+45)
	}
	for _, k := range []int64{0, 10, 100_000, 199_990, 199_999} {
		if v, ok := m.Get(k); !ok || v != k {
			t.Errorf("Get(%d) = %d %v", k, v, ok)
		}
	}
	if _, ok := m.Get(11); ok {
		t.Error("Get(11) found a deleted key")
	}
}

// A key more than Slack past the window's end but within its bound (jobs
// that start after a backlog of waiting ones) goes in the window; one far
// beyond the bound goes to the map and leaves the window as it was.
func TestMapJumpsAndOutliers(t *testing.T) {
	var m Map[int]
	for k := range int64(1000) {
		m.Put(k, int(k))
	}
	m.Put(3000, 3000)
	if len(m.far) != 0 {
		t.Errorf("key 3000 after 0…999 went to the map")
	}
	m.Put(1_000_000, 1)
	if len(m.far) != 1 || m.n != 1001 || m.base != 0 {
		t.Errorf("an outlier moved the window: %d far, %d in the window from %d", len(m.far), m.n, m.base)
	}
	if v, ok := m.Get(1_000_000); !ok || v != 1 {
		t.Errorf("Get(1000000) = %d %v", v, ok)
	}
}
