package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/schedsim/schedsim/cmd/schedsim/run"
)

// lockShard takes the sweep directory's lock for one shard, so that a
// second sweep of the same shard into the same directory is refused
// instead of removing the first one's staging directories. The lock is
// the kernel's (flock): it goes with the process, however it ends, so a
// killed sweep never leaves a stale lock behind. Shards of one sweep take
// different locks and run side by side, as a job array's tasks do.
func lockShard(dir string, index, count int) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, run.Failed(err)
	}
	path := filepath.Join(dir, fmt.Sprintf(".lock-%d-of-%d", index, count))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, run.Failed(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, run.BadInput(fmt.Errorf("--out %s: another sweep of shard %d/%d is running there; wait for it to finish, or give another --out", dir, index, count))
		}
		return nil, run.Failed(fmt.Errorf("%s: %w", path, err))
	}
	return func() { f.Close() }, nil
}
