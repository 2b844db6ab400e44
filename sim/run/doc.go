// Package run is one replay as a reproducible object: the run spec (Spec,
// its typed parts side by side in YAML, the flags a view of it), its strict
// loading with file:line errors (Load, Overlay), its validation against the
// registries (policies/registry, traces/formats), and Replay, which opens the
// trace and cluster, applies the what-if transforms, builds the scheduler
// and the recorder, runs the engine and writes the run directory — staged
// and renamed into place, with run.yaml (the resolved spec plus its
// provenance) so that `schedsim replay --config RUN/run.yaml` replays it
// byte for byte. The commands replay, sweep, tune and the tests all run
// through it; package main only parses flags and prints.
package run
