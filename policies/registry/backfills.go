package registry

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/policies"
)

// Backfill is a registered backfilling discipline. One with arguments
// has them in the spec block named after it, typed by NewArgs and
// decoded strictly, like a queue order's.
type Backfill struct {
	Kind policies.Backfill
	Doc  string
	// NewArgs returns the zero value of the arguments; nil for a
	// backfill that takes none.
	NewArgs func() Args
	// Flat are the keys of the arguments a spec also gives at its top
	// level, and run.yaml writes there (their flags' keys).
	Flat []string
	// Options are the batch scheduler's options from the arguments, for
	// a run of backfilling run (arguments given beside another backfill
	// are checked against it); the error starts with its key.
	Options func(args Args, run policies.Backfill) (policies.Options, error)
	// Flags binds the backfill's own flags on the replay's flag set;
	// args returns the run's arguments to set.
	Flags func(fs *pflag.FlagSet, args func() Args)
}

// backfills is the registry of backfilling disciplines, in the order
// they are listed.
var backfills = []Backfill{
	{Kind: policies.NoBackfill, Doc: policies.BackfillDoc(policies.NoBackfill)},
	{Kind: policies.EASY, Doc: policies.BackfillDoc(policies.EASY)},
	conservativeBackfill,
}

// Backfills returns the backfilling disciplines, in the order listed.
func Backfills() []Backfill { return slices.Clone(backfills) }

// LookupBackfill returns the backfill b, or an error naming the known
// ones.
func LookupBackfill(b policies.Backfill) (Backfill, error) {
	i := slices.IndexFunc(backfills, func(e Backfill) bool { return e.Kind == b })
	if i < 0 {
		_, err := policies.ParseBackfill(string(b))
		if err == nil {
			err = fmt.Errorf("backfill %q is not registered", b)
		}
		return Backfill{}, err
	}
	return backfills[i], nil
}
