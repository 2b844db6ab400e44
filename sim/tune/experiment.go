package tune

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/sweep"
)

// Tuning is a tune experiment resolved: its search settings, the named
// profiles it starts from and the runs each profile is scored on.
type Tuning struct {
	Spec   *experiment.Spec
	Name   string // the experiment's name, else its file's
	Config *Config
	Named  []lattice.Profile
	// Runs are the experiment's runs with the profile axis removed: each
	// profile evaluated replays every one.
	Runs []sweep.Run

	order []string // the summary columns the evaluations met, in order
}

// Prepare loads and checks a tune experiment: lattice queue only, no
// swept weights (tune chooses them), named profiles resolved.
func Prepare(path string) (*Tuning, error) {
	spec, err := experiment.Load(path)
	if err != nil {
		return nil, err
	}
	t := &Tuning{Spec: spec, Name: spec.Name}
	if t.Name == "" {
		t.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	}
	var errs []error
	if t.Config, err = ParseConfig(&spec.Tune, spec.File, spec.Seed); err != nil {
		errs = append(errs, err)
	}
	if q := spec.Policies.Queue; len(q) != 1 || q[0] != experiment.LatticeQueue {
		errs = append(errs, spec.Errorf("policies.queue", "tune searches lattice weights: want [%s]", experiment.LatticeQueue))
	}
	for i, r := range spec.Parameters.Ranges {
		if _, ok := experiment.Weight(r.Name); ok {
			errs = append(errs, spec.Errorf(fmt.Sprintf("parameters.ranges[%d].name", i), "tune chooses the weights: drop %s (bound it with tune.bounds)", r.Name))
		}
	}
	names := spec.Profiles
	if len(names) == 0 {
		names = lattice.BuiltinNames()
	}
	for i, n := range names {
		p, err := namedProfile(n)
		if err != nil {
			errs = append(errs, spec.Errorf(fmt.Sprintf("profiles[%d]", i), "%v", err))
			continue
		}
		t.Named = append(t.Named, p)
	}
	if t.Config != nil && t.Config.Start != "best" && !slices.ContainsFunc(t.Named, func(p lattice.Profile) bool { return p.Name == t.Config.Start }) {
		errs = append(errs, spec.Errorf("tune.start", "%q is not among the named profiles", t.Config.Start))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The profile axis is the search's: one run per remaining point.
	one := *spec
	one.Profiles = []string{lattice.DefaultProfile}
	runs, err := one.Runs()
	if err != nil {
		return nil, err
	}
	if t.Runs, err = sweep.Plan(&one, runs, os.TempDir()); err != nil {
		return nil, err
	}
	return t, nil
}

// namedProfile is a built-in profile, or a profile file's run profile
// (named after the file).
func namedProfile(n string) (lattice.Profile, error) {
	if !experiment.IsProfileFile(n) {
		p, ok := lattice.Builtin(n)
		if !ok {
			return p, fmt.Errorf("unknown profile %q (known: %s)", n, strings.Join(lattice.BuiltinNames(), ", "))
		}
		return p, nil
	}
	pf, err := lattice.LoadProfileFile(n)
	if err != nil {
		return lattice.Profile{}, err
	}
	ps, err := pf.Resolve(nil)
	if err != nil {
		return lattice.Profile{}, fmt.Errorf("%s: %w", n, err)
	}
	p := ps.Run
	p.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(n), ".yaml"), ".yml")
	return p, nil
}
