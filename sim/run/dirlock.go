package run

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A run's staging directory (and the directory an old run is moved aside
// to, where there is no atomic exchange) is locked by its process for the
// process's life, with the kernel's flock on the directory itself: the
// lock goes with the process however it ends, so the next run for the
// same --out can tell the leftovers of a killed run (it can take their
// lock) from the directories of one still running (it cannot).

// lockedDir is a directory held under flock.
type lockedDir struct {
	path string
	f    *os.File
}

// makeLockedDir creates a new directory parent/prefix<random> with mode
// 0777 less the umask (0755 as a rule), and locks it.
func makeLockedDir(parent, prefix string) (*lockedDir, error) {
	for range 100 {
		path := filepath.Join(parent, fmt.Sprintf("%s%08x", prefix, rand.Uint32()))
		err := os.Mkdir(path, 0o777)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		d, err := lockDir(path)
		if err != nil {
			os.Remove(path)
			return nil, err
		}
		return d, nil
	}
	return nil, fmt.Errorf("%s: no free name for %s*", parent, prefix)
}

// lockDir takes path's lock without waiting; errLocked when another
// process holds it.
func lockDir(path string) (*lockedDir, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, err
	}
	return &lockedDir{path: path, f: f}, nil
}

var errLocked = errors.New("locked by a running process")

// unlock releases the lock (the directory stays).
func (d *lockedDir) unlock() {
	if d != nil && d.f != nil {
		d.f.Close()
		d.f = nil
	}
}

// Leftover directory names beside a run directory final:
// .<base>.staging-* (a run being written) and .<base>.replaced-* (an
// old run moved aside, under run/).
func stagingPrefix(final string) string  { return "." + filepath.Base(final) + ".staging-" }
func replacedPrefix(final string) string { return "." + filepath.Base(final) + ".replaced-" }

// recoverRunDir repairs what killed runs for final left behind, before
// anything else looks at final: an old run moved aside by a commit that
// was killed before the new run took its place goes back to final; then
// the staging and moved-aside directories of dead processes are removed.
// Those of running processes are left alone.
func recoverRunDir(final string) error {
	parent := filepath.Dir(final)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		replaced := strings.HasPrefix(name, replacedPrefix(final))
		if !e.IsDir() || !(replaced || strings.HasPrefix(name, stagingPrefix(final))) {
			continue
		}
		path := filepath.Join(parent, name)
		d, err := lockDir(path)
		if err != nil {
			continue // a running process's, or gone already
		}
		if old := filepath.Join(path, "run"); replaced && !exists(final) && exists(old) {
			if err := os.Rename(old, final); err != nil {
				d.unlock()
				return fmt.Errorf("restoring the run %s that a killed --overwrite moved aside to %s: %w", final, old, err)
			}
		}
		err = os.RemoveAll(path)
		d.unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

// crashPoint is a test hook: when SCHEDSIM_TEST_KILL_AT names the point,
// the process kills itself there (SIGKILL: nothing runs after), so that
// a test can check what a crash at that instant leaves behind.
func crashPoint(point string) {
	if os.Getenv("SCHEDSIM_TEST_KILL_AT") == point {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}
