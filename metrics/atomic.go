package metrics

import (
	"bufio"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteFileAtomic writes path through write: the bytes go to a hidden temp
// file in the same directory, which is fsynced and renamed over path only
// when write succeeds. Readers never see a half-written path, and a failed
// write leaves no temp behind. The CLI writes run.yaml with it.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.finish()
	}
	if err == nil {
		err = f.commit()
	}
	if err != nil {
		f.abort()
	}
	return err
}

// tempFile is a hidden file next to final that becomes final on commit.
type tempFile struct {
	*os.File
	final  string
	closed bool
}

// osCreateTemp is createShared; the tests make it fail as a full disk or
// an exhausted file table would.
var osCreateTemp = createShared

// createShared is os.CreateTemp (pattern's last "*" becomes a random
// string) with mode 0666 less the umask, as os.Create makes files:
// CreateTemp's 0600 would keep outputs meant to be shared from others,
// and a fixed chmod 0644 would override a umask that asks for less.
func createShared(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: os.ErrExist}
}

// createTemp opens ".<base>.<random>.tmp" in final's directory. The dot
// hides it from globs such as *.parquet, so a reader of a run directory
// never picks up a half-written table.
func createTemp(final string) (*tempFile, error) {
	dir, base := filepath.Split(final)
	if dir == "" {
		dir = "."
	}
	f, err := osCreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &tempFile{File: f, final: final}, nil
}

// finish syncs and closes the temp file; its bytes are then durable.
func (t *tempFile) finish() error {
	err := t.Sync()
	if cerr := t.Close(); err == nil {
		err = cerr
	}
	t.closed = true
	return err
}

// commit renames the finished temp over the final name and syncs the
// directory so the rename itself survives a crash (best effort: some file
// systems refuse to sync a directory).
func (t *tempFile) commit() error {
	if err := t.rename(); err != nil {
		return err
	}
	SyncDir(filepath.Dir(t.final))
	return nil
}

// rename moves the finished temp over the final name; syncing the
// directory is the caller's.
func (t *tempFile) rename() error { return os.Rename(t.Name(), t.final) }

// SyncDir makes the renames in dir durable (best effort: some file
// systems refuse to sync a directory).
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// abort closes and removes the temp file; it is safe to call twice.
func (t *tempFile) abort() error {
	var err error
	if !t.closed {
		err = t.Close()
		t.closed = true
	}
	if rerr := os.Remove(t.Name()); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

// CopyFileSynced copies the regular file src to dst (created or
// truncated, mode 0644), streaming, and syncs dst to disk before it
// returns, so that a copied run survives a crash once the caller renames
// its directory into place (and syncs the parent: SyncDir).
func CopyFileSynced(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return err
	}
	return out.Sync()
}
