// Package strictyaml is the one decoder of schedsim's YAML files (run
// specs, experiments, clusters, tune blocks, tolerances, Lattice
// profiles): it decodes a yaml.Node into a Go value by reflection over
// the `yaml` struct tags and reports every problem at once — an unknown
// key with the nearest known one ("did you mean"), a value of the wrong
// type, a key given twice — each with its file, line and key path, in
// line order.
//
// It reads the node tree the YAML library builds and never the text of
// the library's errors, so a new library version cannot silently change
// what a user is told. Types with their own syntax implement Unmarshaler
// (and report through the Decoder); scalars with a yaml.Unmarshaler keep
// working, their error becoming the problem's text.
package strictyaml
