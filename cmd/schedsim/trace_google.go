package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/google"
)

// The --trace-format names of the Google traces.
var (
	formatGoogle2011 = google.V2011.String()
	formatGoogle2019 = google.V2019.String()
)

// isGoogleFormat: Google jobs carry constraints and anti-affinity, which
// only the placement pipeline honours.
func isGoogleFormat(f string) bool { return f == formatGoogle2011 || f == formatGoogle2019 }

// openGoogle opens a Google cluster trace directory (2011 or 2019). The
// trace carries its cluster (machine_events) and the machines' failures,
// used unless --cluster or --platform is given.
func (w *workload) openGoogle(c *replayConfig, opt traces.Options) error {
	v := google.V2011
	if w.format == google.V2019.String() {
		v = google.V2019
	}
	scale, err := google.ParseScale(c.GoogleScale)
	if err != nil {
		return fmt.Errorf("--google-scale: %w", err)
	}
	r, err := google.OpenVersion(c.Trace, v, google.Options{Options: opt, Scale: scale})
	if err != nil {
		return err
	}
	w.source, w.skips, w.close = r, r.Skips, func() { r.Close() }
	if c.Cluster != "" || c.Platform != "" {
		return nil
	}
	st := r.Stats().Machines
	if len(r.Nodes()) == 0 {
		r.Close()
		return fmt.Errorf("%s: machine_events gives no machine with a capacity; give --cluster", c.Trace)
	}
	if len(r.NodeEvents()) > 0 && c.Backfill == string(policies.Conservative) {
		r.Close()
		return fmt.Errorf("%s: the trace's machines fail and come back (%d node events), which --backfill conservative does not model; use none or easy, or give --cluster", c.Trace, len(r.NodeEvents()))
	}
	w.nodes, w.nodeEvents = r.Nodes(), r.NodeEvents()
	w.cluster = fmt.Sprintf("%s machine_events: %d machines, %d node events (%d left out without capacity, %d capacity updates ignored)",
		v, st.Machines, st.Events, st.NoCapacity, st.Updates)
	return nil
}

// sniffGoogle tells a Google trace directory's version.
func sniffGoogle(dir string) (string, error) {
	if v, ok := google.Sniff(dir); ok {
		return v.String(), nil
	}
	return "", fmt.Errorf("%s: a directory, but not a Google trace (want task_events/ for 2011 or instance_events for 2019); give --trace-format", dir)
}

// checksumDir is the SHA-256 of a trace directory: each regular file's
// relative path and bytes, in path order.
func checksumDir(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s\x00", filepath.ToSlash(rel))
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func isDirectory(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
