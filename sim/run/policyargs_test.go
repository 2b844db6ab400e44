package run

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
)

// loadSpec writes text to a spec file, loads and validates it.
func loadSpec(t *testing.T, text string) (Spec, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	write(t, path, text)
	c, err := Load(path)
	if err == nil {
		err = c.Validate()
	}
	return c, err
}

// TestFlatKeysAreTheBlocks: the top-level keys of specs written before the
// blocks (reservations, planning_delay_s, compat, profile) and the blocks
// they now belong to give the same arguments, and run.yaml writes them at
// the top level again, where an older schedsim reads them.
func TestFlatKeysAreTheBlocks(t *testing.T) {
	flat := "queue: lattice\nprofile: sensitive\nbackfill: easy\nreservations: keep\ncompat: batsim\n"
	block := "queue: lattice\nlattice: {profile: sensitive}\nbackfill: easy\nconservative: {reservations: keep, compat: batsim}\n"
	a, err := loadSpec(t, flat)
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadSpec(t, block)
	if err != nil {
		t.Fatal(err)
	}
	want := registry.ConservativeArgs{Reservations: "keep", Compat: "batsim"}
	for _, c := range []*Spec{&a, &b} {
		if got := *ArgsOf[registry.ConservativeArgs](c, "conservative"); got != want {
			t.Errorf("conservative arguments %+v, want %+v", got, want)
		}
		if c.Profile() != "sensitive" || ArgsOf[lattice.Args](c, "lattice").Profile != "sensitive" {
			t.Errorf("profile %q, want sensitive", c.Profile())
		}
		out, err := yaml.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		s := string(out)
		if !strings.Contains(s, "queue: lattice\nprofile: sensitive\nbackfill: easy\nreservations: keep\ncompat: batsim\n") || strings.Contains(s, "conservative:") || strings.Contains(s, "lattice:") {
			t.Errorf("run.yaml:\n%s", s)
		}
	}
}

// TestConservativeOptions: the options the batch scheduler gets, from
// flags, compat batsim and the keys beside it.
func TestConservativeOptions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want policies.Options
	}{
		{[]string{"--backfill", "conservative"}, policies.Options{}},
		{[]string{"--backfill", "conservative", "--reservations", "repick"}, policies.Options{Reservations: policies.Repick}},
		{[]string{"--backfill", "conservative", "--planning-delay", "2.5"}, policies.Options{PlanningDelay: sim.SecondsToTime(2.5)}},
		{[]string{"--backfill", "conservative", "--compat", "batsim"}, policies.Options{Reservations: policies.Repick, PlanningDelay: sim.SecondsToTime(5)}},
		{[]string{"--backfill", "conservative", "--compat", "batsim", "--reservations", "keep"}, policies.Options{Reservations: policies.Keep, PlanningDelay: sim.SecondsToTime(5)}},
		{[]string{"--backfill", "easy", "--compat", "batsim"}, policies.Options{}},
	} {
		cfg := Default()
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		cfg.BindFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got, err := cfg.batchOptions(); err != nil || got != c.want {
			t.Errorf("%v: options %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
}

// TestPolicyArgsProblems: a bad argument is named where it was given: the
// top-level key, the key in its block, or the flag.
func TestPolicyArgsProblems(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"backfill: conservative\nreservations: bogus\n", "spec.yaml:2: reservations: unknown reservations rule"},
		{"backfill: conservative\nconservative:\n  reservations: bogus\n", "spec.yaml:3: conservative.reservations: unknown reservations rule"},
		{"backfill: easy\nplanning_delay_s: 3\n", "spec.yaml:2: planning_delay_s: a planning delay applies to conservative backfilling only, not easy"},
		{"compat: foo\n", "spec.yaml:1: compat: unknown simulator \"foo\""},
		{"queue: fcfs\nprofile: sensitive\n", "spec.yaml:2: profile: weight profiles need --queue lattice"},
		{"queue: lattice\nlattice:\n  profile: nosuch\n", "spec.yaml:3: lattice.profile: unknown profile \"nosuch\""},
		{"reservation: keep\n", `unknown key "reservation" (did you mean "reservations"?)`},
	} {
		_, err := loadSpec(t, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.spec, err, c.want)
		}
	}
}
