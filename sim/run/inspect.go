package run

import (
	"os"
	"path/filepath"
)

// OpenForInspection opens the spec's trace as a replay does, for reading
// its jobs rather than replaying them. A trace needs no cluster to be
// read, but the openers of formats that carry none (native, Azure, …)
// refuse to open without one: for those, when the spec gives none, the
// trace is opened again with a one-node stand-in, and ownCluster is false
// (the workload's cluster says nothing of the trace).
func OpenForInspection(cfg *Spec) (w *Workload, ownCluster bool, err error) {
	w, err = OpenWorkload(cfg, nil)
	if err == nil || cfg.Cluster != "" || cfg.Platform != "" {
		return w, err == nil, err
	}
	dir, derr := os.MkdirTemp("", "schedsim-inspect-")
	if derr != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	standIn := filepath.Join(dir, "stand-in.yaml")
	if os.WriteFile(standIn, []byte("nodes:\n  - {name: stand-in, resources: {cpu: 1}}\n"), 0o644) != nil {
		return nil, false, err
	}
	c := *cfg
	c.Cluster = standIn
	if w2, err2 := OpenWorkload(&c, nil); err2 == nil {
		return w2, false, nil
	}
	return nil, false, err // the first error: it is about the trace itself
}
