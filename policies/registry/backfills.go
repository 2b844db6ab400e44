package registry

import "github.com/schedsim/schedsim/policies"

// Backfill is a registered backfilling discipline.
type Backfill struct {
	Kind policies.Backfill
	Doc  string
}

// Backfills returns the backfilling disciplines, in the order listed.
func Backfills() []Backfill {
	var out []Backfill
	for _, b := range []policies.Backfill{policies.NoBackfill, policies.EASY, policies.Conservative} {
		out = append(out, Backfill{b, policies.BackfillDoc(b)})
	}
	return out
}
