// Package run is one replay as a reproducible object: the run spec (Spec,
// its typed parts side by side in YAML, the flags a view of it), its strict
// loading with file:line errors (Load, Overlay), its validation against the
// registries (policies/registry, traces/formats), and Replay, which opens the
// trace and cluster, applies the what-if transforms, builds the scheduler
// and the recorder, runs the engine and writes the run directory — staged
// and renamed into place, with run.yaml (the resolved spec plus its
// provenance) so that `schedsim replay --config RUN/run.yaml` replays it
// byte for byte. Replay returns a Result: the summary row it wrote (each
// cell as summary.csv holds it), the skipped records, the events and the
// failed jobs, so that its callers (the printer, sim/sweep, sim/tune,
// sim/calibrate) never read the run directory back. The commands replay,
// sweep, tune, calibrate and the tests all run through it; cmd/schedsim
// only parses flags, calls the library and prints.
package run
