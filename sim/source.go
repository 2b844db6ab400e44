package sim

import "io"

// Source yields jobs in nondecreasing submit order, one at a time; it
// returns io.EOF after the last one. Trace readers implement it.
type Source interface {
	Next() (*Job, error)
}

// SliceSource serves jobs from a slice (tests, small workloads). The jobs
// must already be in submit order.
type SliceSource struct {
	Jobs []*Job
	i    int
}

// Next implements Source.
func (s *SliceSource) Next() (*Job, error) {
	if s.i >= len(s.Jobs) {
		return nil, io.EOF
	}
	s.i++
	return s.Jobs[s.i-1], nil
}
