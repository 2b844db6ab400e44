package formats

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/traces/alibaba"
)

// Checksum is the SHA-256 that identifies a trace in run.yaml: of its
// bytes (data, when given, or the file's); of an Alibaba directory, each
// table the reader uses (name and bytes); of any other directory, every
// regular file's relative path and bytes in path order.
func Checksum(path string, data []byte) (string, error) {
	if data == nil && isDirectory(path) {
		if alibaba.IsTrace(path) {
			return alibabaChecksum(path)
		}
		return dirChecksum(path)
	}
	h := sha256.New()
	if data != nil {
		h.Write(data)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return "", fmt.Errorf("%s: %v", path, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func dirChecksum(dir string) (string, error) {
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

func alibabaChecksum(dir string) (string, error) {
	files, err := alibaba.FindFiles(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, p := range []string{files.Tasks, files.Instances, files.Machines} {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\n", filepath.Base(p))
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %v", p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
