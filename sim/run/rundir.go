package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/metrics"
)

// runDir is a run's directory while it is made: the run is written into
// stage, a hidden directory beside final, and moved into place only once
// complete. A run that fails or is interrupted removes its stage, so there
// is never a half-written run, nor one run's files beside another's; a
// run that is killed leaves its stage, which the next run for the same
// final removes (dirlock.go).
type runDir struct {
	final, stage string
	lock         *lockedDir // the stage's, held until the process ends
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

// claimRunDir picks the run's directory and makes its stage. What killed
// runs for that directory left is repaired first (recoverRunDir). --out
// naming an earlier run is refused unless overwrite; a directory of other
// files is never taken; a default name that is taken gets -2, -3 …
// instead.
func claimRunDir(cfg *Spec, w *Workload, overwrite bool) (*runDir, error) {
	d := &runDir{final: cfg.Out}
	if d.final == "" {
		base := defaultRunDir(cfg, w)
		d.final = base
		for i := 2; ; i++ {
			if err := recoverParent(d.final); err != nil {
				return nil, err
			}
			if !exists(d.final) {
				break
			}
			d.final = fmt.Sprintf("%s-%d", base, i)
		}
	} else {
		if err := recoverParent(d.final); err != nil {
			return nil, err
		}
		if exists(d.final) {
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
	}
	lock, err := makeLockedDir(filepath.Dir(d.final), stagingPrefix(d.final))
	if err != nil {
		return nil, Failed(err)
	}
	d.stage, d.lock = lock.path, lock
	return d, nil
}

// recoverParent makes final's parent and repairs what killed runs for
// final left there.
func recoverParent(final string) error {
	if err := os.MkdirAll(filepath.Dir(final), 0o777); err != nil {
		return Failed(err)
	}
	if err := recoverRunDir(final); err != nil {
		return Failed(err)
	}
	return nil
}

// commit moves the stage into place. An earlier run is replaced by
// exchanging the two directories in one step, then removing the old one
// (now at the stage's name): a crash at any instant leaves final holding
// the whole old run or the whole new one, and at most a leftover that
// the next run removes. Where the system has no exchange, the old run is
// moved aside first, and a crash between the two renames is repaired by
// the next run for final (recoverRunDir).
func (d *runDir) commit() error {
	parent := filepath.Dir(d.final)
	crashPoint("commit")
	if d.replace && exists(d.final) {
		err := errors.New("exchange disabled by SCHEDSIM_TEST_NO_EXCHANGE")
		if os.Getenv("SCHEDSIM_TEST_NO_EXCHANGE") == "" {
			err = exchangeDirs(d.stage, d.final)
		}
		if err == nil {
			d.done = true
			metrics.SyncDir(parent)
			crashPoint("exchanged")
			os.RemoveAll(d.stage) // the old run
			return nil
		}
		return d.replaceByRenames()
	}
	if err := os.Rename(d.stage, d.final); err != nil {
		return err
	}
	d.done = true
	metrics.SyncDir(parent)
	return nil
}

// replaceByRenames replaces the run at final in two renames: the old run
// goes to a locked .replaced-* directory first, whence the next run for
// final restores it if this process dies before the new run is in place.
func (d *runDir) replaceByRenames() error {
	parent := filepath.Dir(d.final)
	aside, err := makeLockedDir(parent, replacedPrefix(d.final))
	if err != nil {
		return err
	}
	defer aside.unlock()
	old := filepath.Join(aside.path, "run")
	if err := os.Rename(d.final, old); err != nil {
		os.Remove(aside.path)
		return err
	}
	crashPoint("moved-aside")
	if err := os.Rename(d.stage, d.final); err != nil {
		return errors.Join(err, os.Rename(old, d.final))
	}
	d.done = true
	metrics.SyncDir(parent)
	crashPoint("renamed")
	os.RemoveAll(aside.path)
	return nil
}

// abandon removes the stage of a run that did not complete.
func (d *runDir) abandon() {
	if d != nil && !d.done {
		os.RemoveAll(d.stage)
	}
	if d != nil {
		d.lock.unlock()
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
