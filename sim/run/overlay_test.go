package run

import (
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/policies/lattice"
)

// mapping parses a YAML mapping into its node.
func mapping(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// TestOverlayFromRebasesOnlyWhatItSets: the paths the overlay sets are
// read from the space file's directory; those it leaves, a policy block's
// included (the spec copies a block on every edit), stay as they were.
func TestOverlayFromRebasesOnlyWhatItSets(t *testing.T) {
	var c Spec
	if err := c.Overlay("spec.yaml", mapping(t, "queue: lattice\ncluster: c.yaml\nlattice: {energy_prices: prices.csv}\n")); err != nil {
		t.Fatal(err)
	}
	space := filepath.Join("spaces", "space.yaml")
	if err := c.OverlayFrom(space, mapping(t, "calendar: cal.yaml\nbackfill: easy\n")); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("spaces", "cal.yaml"); c.Calendar != want {
		t.Errorf("calendar %q, want %q", c.Calendar, want)
	}
	if c.Cluster != "c.yaml" {
		t.Errorf("cluster %q, want c.yaml: the overlay did not set it", c.Cluster)
	}
	if got := ArgsOf[lattice.Args](&c, "lattice").EnergyPrices; got != "prices.csv" {
		t.Errorf("lattice.energy_prices %q, want prices.csv: the overlay did not set it", got)
	}
	// Set again to the value it had: still the space file's.
	if err := c.OverlayFrom(space, mapping(t, "cluster: c.yaml\n")); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("spaces", "c.yaml"); c.Cluster != want {
		t.Errorf("cluster set by the overlay: %q, want %q", c.Cluster, want)
	}
}
