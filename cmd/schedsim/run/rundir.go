package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/metrics"
)

// runDir is a run's directory while it is made: the run is written into
// stage, a hidden directory beside final, and renamed into place only once
// complete. A run that fails or is interrupted removes its stage, so there
// is never a half-written run, nor one run's files beside another's.
type runDir struct {
	final, stage string
	// replace: final holds an earlier run, which commit replaces.
	replace bool
	done    bool
}

// IsRunDir says whether dir holds a run (its run.yaml or summary.csv).
func IsRunDir(dir string) bool {
	for _, f := range []string{"run.yaml", "summary.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// claimRunDir picks the run's directory and makes its stage. --out naming
// an earlier run is refused unless overwrite; a directory of other files is
// never taken; a default name that is taken gets -2, -3 … instead.
func claimRunDir(cfg *Spec, w *Workload, overwrite bool) (*runDir, error) {
	d := &runDir{final: cfg.Out}
	if d.final == "" {
		base := defaultRunDir(cfg, w)
		d.final = base
		for i := 2; exists(d.final); i++ {
			d.final = fmt.Sprintf("%s-%d", base, i)
		}
	} else if exists(d.final) {
		switch {
		case !isDir(d.final):
			return nil, BadInput(fmt.Errorf("--out %s: a file, not a directory", d.final))
		case IsRunDir(d.final) && !overwrite:
			return nil, BadInput(fmt.Errorf("--out %s: holds an earlier run; give --overwrite to replace it, or another --out", d.final))
		case IsRunDir(d.final):
			d.replace = true
		case !isEmptyDir(d.final):
			return nil, BadInput(fmt.Errorf("--out %s: a directory of other files, not a run; choose another --out", d.final))
		default:
			d.replace = true // an empty directory
		}
	}
	parent := filepath.Dir(d.final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, Failed(err)
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(d.final)+".staging-")
	if err != nil {
		return nil, Failed(err)
	}
	d.stage = stage
	return d, nil
}

// commit renames the stage into place, replacing the earlier run when
// there was one: the old run is moved aside first and removed once the new
// one is in place, so a crash leaves one whole run or the other.
func (d *runDir) commit() error {
	parent := filepath.Dir(d.final)
	var old string
	if d.replace && exists(d.final) {
		tmp, err := os.MkdirTemp(parent, "."+filepath.Base(d.final)+".replaced-")
		if err != nil {
			return err
		}
		old = filepath.Join(tmp, "run")
		if err := os.Rename(d.final, old); err != nil {
			os.Remove(tmp)
			return err
		}
		defer os.RemoveAll(tmp)
	}
	if err := os.Rename(d.stage, d.final); err != nil {
		if old != "" {
			err = errors.Join(err, os.Rename(old, d.final))
		}
		return err
	}
	d.done = true
	metrics.SyncDir(parent)
	return nil
}

// abandon removes the stage of a run that did not complete.
func (d *runDir) abandon() {
	if d != nil && !d.done {
		os.RemoveAll(d.stage)
	}
}

// final is where the run is, once committed ("" for a run staged by its
// caller).
func (d *runDir) finalDir() string {
	if d == nil {
		return ""
	}
	return d.final
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func isDir(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }

func isEmptyDir(p string) bool {
	entries, err := os.ReadDir(p)
	return err == nil && len(entries) == 0
}
