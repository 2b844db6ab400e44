package multifactor

import "github.com/schedsim/schedsim/sim"

// Wrap returns inner (a batch scheduler: no backfilling, EASY or
// conservative) running on the queue in multifactor order: each pass
// first brings the usage to now, scores the queued jobs and sorts the
// queue, then lets inner schedule, then charges the jobs it started to
// their tenants.
//
// The sort rearranges the engine's queue slice (Context.Queue) in place,
// before inner reads it; nothing else in the engine depends on its order
// between passes. Give the engine o.Less as its Config.Less so that jobs
// arriving between passes are inserted where the last scores put them.
func (o *Order) Wrap(inner sim.Scheduler) sim.Scheduler { return &scheduler{o: o, inner: inner} }

type scheduler struct {
	o     *Order
	inner sim.Scheduler
}

func (s *scheduler) Schedule(c *sim.Context) error {
	s.o.refresh(c)
	err := s.inner.Schedule(c)
	s.o.book(c)
	return err
}
