package traces

import (
	"io"

	"github.com/schedsim/schedsim/sim"
)

// Prefetch reads src ahead in its own goroutine, in batches, so that
// decompression and parsing overlap with the simulation on a second core.
// The engine still sees one job at a time, in the same order: results do
// not change. Call Close when done, even after an error.
func Prefetch(src sim.Source, batch int) *Prefetcher {
	p := &Prefetcher{ch: make(chan prefetched, 4), done: make(chan struct{})}
	go func() {
		sim.LabelGoroutine("read")
		defer close(p.ch)
		for {
			b := prefetched{jobs: make([]*sim.Job, 0, batch)}
			for len(b.jobs) < batch {
				j, err := src.Next()
				if err != nil {
					b.err = err
					break
				}
				b.jobs = append(b.jobs, j)
			}
			select {
			case p.ch <- b:
			case <-p.done:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return p
}

// Prefetcher is a sim.Source fed by a reading goroutine.
type Prefetcher struct {
	ch   chan prefetched
	done chan struct{}
	cur  prefetched
	i    int
	end  error
}

type prefetched struct {
	jobs []*sim.Job
	err  error
}

// Next implements sim.Source.
func (p *Prefetcher) Next() (*sim.Job, error) {
	for p.i >= len(p.cur.jobs) {
		if p.end != nil {
			return nil, p.end
		}
		if p.cur.err != nil {
			p.end = p.cur.err
			return nil, p.end
		}
		b, ok := <-p.ch
		if !ok {
			p.end = io.EOF
			return nil, io.EOF
		}
		p.cur, p.i = b, 0
	}
	p.i++
	return p.cur.jobs[p.i-1], nil
}

// Close stops the reading goroutine.
func (p *Prefetcher) Close() {
	select {
	case <-p.done:
	default:
		close(p.done)
	}
	for range p.ch {
	}
}
