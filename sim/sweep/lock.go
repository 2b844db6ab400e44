package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// A sweep directory's locks are the kernel's (flock) on hidden files in
// it: they go with the process, however it ends, so a killed sweep never
// leaves a stale lock behind.
//
//	.lock-<i>-of-<n>  held (exclusive) by the sweep of shard i of n
//	.lock-of-<n>      held (shared) by every sweep of n shards
//	.lock-sweeps      held (shared) by every sweep, exclusive by merge
//	.lock             held (exclusive) a moment, while the above are taken
//
// Shards of one sweep take different shard locks and run side by side, as
// a job array's tasks do; a second sweep of the same shard, a sweep of
// another shard count (an unsharded sweep is 1 shard) and a merge are
// refused while they run.

// lockShard takes the sweep directory's locks for one shard.
func lockShard(dir string, index, count int) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, run.Failed(err)
	}
	guard, err := lockFile(dir, ".lock", true)
	if err != nil {
		return nil, run.Failed(err)
	}
	defer guard.Close()
	var held []*os.File
	release = func() {
		for _, f := range held {
			f.Close()
		}
	}
	take := func(name string, exclusive bool, busy string) error {
		f, err := lockFile(dir, name, exclusive)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return run.BadInput(fmt.Errorf("--out %s: %s; wait for it to finish, or give another --out", dir, busy))
		}
		if err != nil {
			return run.Failed(err)
		}
		held = append(held, f)
		return nil
	}
	if err := take(".lock-sweeps", false, "merge is writing there"); err != nil {
		return nil, err
	}
	// A sweep of another shard count holds its count's lock.
	counts, _ := filepath.Glob(filepath.Join(dir, ".lock-of-*"))
	for _, path := range counts {
		name := filepath.Base(path)
		if name == fmt.Sprintf(".lock-of-%d", count) {
			continue
		}
		f, err := lockFile(dir, name, true)
		if err != nil {
			release()
			other := strings.TrimPrefix(name, ".lock-of-")
			if other == "1" {
				return nil, run.BadInput(fmt.Errorf("--out %s: an unsharded sweep is running there; sweeps of one directory must use the same --shards", dir))
			}
			return nil, run.BadInput(fmt.Errorf("--out %s: a sweep of %s shards is running there; sweeps of one directory must use the same --shards", dir, other))
		}
		f.Close()
	}
	if err := take(fmt.Sprintf(".lock-of-%d", count), false, ""); err != nil {
		release()
		return nil, err
	}
	if err := take(fmt.Sprintf(".lock-%d-of-%d", index, count), true, fmt.Sprintf("another sweep of shard %d/%d is running there", index, count)); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// lockMerge takes the sweep directory's lock for merge: no sweep may be
// running there.
func lockMerge(dir string) (release func(), err error) {
	guard, err := lockFile(dir, ".lock", true)
	if err != nil {
		return nil, run.Failed(err)
	}
	defer guard.Close()
	f, err := lockFile(dir, ".lock-sweeps", true)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, run.BadInput(fmt.Errorf("%s: a sweep is running there; merge once it has finished", dir))
	}
	if err != nil {
		return nil, run.Failed(err)
	}
	return func() { f.Close() }, nil
}

// lockFile opens dir/name and locks it without waiting (.lock, the
// guard, waits: it is held only while the others are taken).
func lockFile(dir, name string, exclusive bool) (*os.File, error) {
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if name != ".lock" {
		how |= syscall.LOCK_NB
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// slurmStateFile is what deploy/slurm/submit.sh writes into the sweep
// directory before the array starts (the state a --retry reads).
const slurmStateFile = "slurm.env"

// checkSweepDir refuses an --out that exists and is not a sweep of this
// experiment: a directory with an experiment.yaml of another experiment,
// or one of other files (a sweep never writes into a directory it did not
// make, nor overwrites a summary.csv it did not write).
func checkSweepDir(dir string, specFile string, spec []byte) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return run.Failed(err)
	case !fi.IsDir():
		return run.BadInput(fmt.Errorf("--out %s: a file, not a directory", dir))
	}
	path := filepath.Join(dir, experiment.SpecFile)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && string(old) == string(spec):
		return nil
	case err == nil:
		return run.BadInput(fmt.Errorf("--out %s holds another experiment than %s (%s differs): use another --out, or remove it", dir, specFile, path))
	case !errors.Is(err, os.ErrNotExist):
		return run.Failed(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return run.Failed(err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".lock"):
			continue // a sweep's, killed before it wrote experiment.yaml
		case strings.HasPrefix(name, "."+experiment.SpecFile+".") && strings.HasSuffix(name, ".tmp"):
			continue // another shard writing experiment.yaml now
		case name == slurmStateFile:
			continue // deploy/slurm/submit.sh's, written before the array's tasks start
		case name == experiment.SpecFile:
			// Another shard wrote it since it was read: read it again.
			return checkSweepDir(dir, specFile, spec)
		}
		if name == experiment.RunsDir && e.IsDir() {
			if sub, _ := os.ReadDir(filepath.Join(dir, name)); len(sub) == 0 {
				continue
			}
		}
		return run.BadInput(fmt.Errorf("--out %s: a directory of other files (%s), not a sweep of %s (it has no %s); choose another --out",
			dir, name, specFile, experiment.SpecFile))
	}
	return nil
}
