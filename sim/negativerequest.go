package sim

import "fmt"

// NegativeRequestError refuses a job whose request of Resource is
// negative while no node has a shortcoming or ward of it. A negative
// request only means something as pylighthouse defines it, cancelling a
// node's shortcoming (shortcoming.go); anywhere else it would add to the
// free amount and overcommit the node, so the run stops with this error
// (bad input) instead of replaying it.
type NegativeRequestError struct {
	Job      *Job
	Resource string
	Amount   Amount
}

func (e *NegativeRequestError) Error() string {
	return fmt.Sprintf("job %s requests %s: %s, a negative amount, but no node has a shortcoming or ward of %s (a negative request only cancels one)",
		e.Job.ID, e.Resource, e.Amount, e.Resource)
}

// checkNegative returns a *NegativeRequestError for the first resource j
// requests a negative amount of that no node has a shortcoming or ward
// of, or nil. A resource no node has is left to the fit (a rejection).
func (c *Cluster) checkNegative(j *Job) error {
	for _, q := range j.Request {
		if q.Amount >= 0 {
			continue
		}
		if r, ok := c.resIndex[q.Resource]; ok && !c.shortRes[r] {
			return &NegativeRequestError{Job: j, Resource: q.Resource, Amount: q.Amount}
		}
	}
	return nil
}
