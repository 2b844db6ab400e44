package metrics

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

// When a table file cannot be created (file descriptors or inodes
// exhausted), the recorder fails with the error and leaves nothing
// behind; it panicked with "close of nil channel" when the first table
// was created and the second was not.
func TestRecorderTableCreateFails(t *testing.T) {
	calls := 0
	osCreateTemp = func(dir, pattern string) (*os.File, error) {
		calls++
		if calls == 2 {
			return nil, &os.PathError{Op: "open", Path: dir + "/" + pattern, Err: syscall.EMFILE}
		}
		return os.CreateTemp(dir, pattern)
	}
	defer func() { osCreateTemp = createShared }()
	dir := t.TempDir()
	_, err := NewRecorder(dir, twoNodes(t), Options{})
	if !errors.Is(err, syscall.EMFILE) || !strings.Contains(err.Error(), "too many open files") {
		t.Fatalf("got %v", err)
	}
	if left := files(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
