package sim

// shapeCache remembers compiled requests by the trace's request slice.
// Readers that intern their requests (the native Parquet reader hands
// every job of a shape the same []Quantity) then cost one map lookup per
// job instead of a compile (an allocation, a lookup per resource name)
// and a fit-cache lookup; and jobs of a shape share one compiled request,
// which stays in the cache while their own allocations would not. Jobs
// are never changed (Job), so a slice names its contents. Traits can add
// immunities, so only jobs without them are cached.
//
// A reader that makes a new slice per job fills the cache; it is then
// dropped for the rest of the run, and costs nothing more.
type shapeCache struct {
	byFirst map[*Quantity]compiledShape
	off     bool
}

// compiledShape is a compiled request and how many of its tasks the most
// permissive cluster holds (neverFits).
type compiledShape struct {
	n    int // len of the request slice
	req  []Need
	most int
}

// maxShapes is where the cache gives up: more distinct slices than any
// trace has shapes means they are not shared.
const maxShapes = 4096

func (s *shapeCache) get(j *Job) (compiledShape, bool) {
	if s.off || j.Traits != nil || len(j.Request) == 0 {
		return compiledShape{}, false
	}
	c, ok := s.byFirst[&j.Request[0]]
	return c, ok && c.n == len(j.Request)
}

func (s *shapeCache) put(j *Job, req []Need, most int) {
	if s.off || j.Traits != nil || len(j.Request) == 0 {
		return
	}
	if s.byFirst == nil {
		s.byFirst = map[*Quantity]compiledShape{}
	}
	if len(s.byFirst) >= maxShapes {
		s.byFirst, s.off = nil, true
		return
	}
	s.byFirst[&j.Request[0]] = compiledShape{n: len(j.Request), req: req, most: most}
}
