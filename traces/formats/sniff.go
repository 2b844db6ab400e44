package formats

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Sniff names the format of the trace at path (or of data, an embedded
// trace's bytes): by its name or directory layout first, else by its first
// bytes. An empty path with no data is the embedded default, an SWF log.
func Sniff(path string, data []byte) (string, error) {
	if path == "" || data != nil {
		if data == nil || looksSWF(bytes.TrimLeft(data, " \t\r\n\ufeff")) || isGzip(data) {
			return "swf", nil
		}
	}
	if err := refuseOpenb(path); err != nil {
		return "", err
	}
	for _, f := range registry {
		byPath := f.ByPath
		if byPath == nil {
			byPath = hasExt(f.Extensions...)
		}
		if byPath(path) {
			return f.Name, nil
		}
	}
	if isDirectory(path) {
		return "", fmt.Errorf("%s: a directory, but not a trace this version reads (Google: task_events/ for 2011 or instance_events for 2019; Alibaba: batch_task.csv); give --trace-format", path)
	}
	head, err := fileHead(path, data)
	if err != nil {
		return "", err
	}
	if isParquet(head) {
		return "native", nil
	}
	head = bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(head) == 0 {
		return "", fmt.Errorf("%s: empty trace", path)
	}
	for _, f := range registry {
		if f.ByContent != nil && f.ByContent(head) {
			return f.Name, nil
		}
	}
	return "", fmt.Errorf("%s: cannot tell the trace format from its name or content (known: %s); give --trace-format", path, strings.Join(Names(), ", "))
}

// fileHead returns the first 4 KiB of the trace, decompressed when it is
// gzip (a Parquet file's magic is kept as is).
func fileHead(path string, data []byte) ([]byte, error) {
	var r io.Reader
	if data != nil {
		r = bytes.NewReader(data)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); isGzip(magic) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		r = gz
	} else {
		r = br
	}
	head := make([]byte, 4096)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return head[:n], nil
}

// openbHeaders begin the header lines of the openb trace's files (the
// Alibaba GPU cluster trace of the FGD paper): its pod and node lists.
var openbHeaders = []string{"name,cpu_milli,memory_mib,num_gpu,gpu_milli", "sn,cpu_milli,memory_mib,gpu"}

// refuseOpenb says what to do with an openb CSV given as a trace: its
// pods arrive and never leave, which `schedsim openb` replays, not replay.
func refuseOpenb(path string) error {
	if !hasExt(".csv")(path) {
		return nil
	}
	head, err := fileHead(path, nil)
	if err != nil {
		return nil // the format's reader reports it
	}
	for _, h := range openbHeaders {
		if bytes.HasPrefix(bytes.TrimLeft(head, "\ufeff"), []byte(h)) {
			return fmt.Errorf("%s: an openb pod or node list (Alibaba GPU cluster trace), not a replay trace: "+
				"run it with schedsim openb --nodes NODE_LIST.csv --pods POD_LIST.csv", path)
		}
	}
	return nil
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

func isParquet(head []byte) bool { return bytes.HasPrefix(head, []byte("PAR1")) }

// looksSWF: SWF logs start with ';' header comments or a job's number.
func looksSWF(head []byte) bool {
	return len(head) > 0 && (head[0] == ';' || (head[0] >= '0' && head[0] <= '9'))
}

// looksBatsim: a JSON object with a jobs array.
func looksBatsim(head []byte) bool {
	return len(head) > 0 && head[0] == '{' && bytes.Contains(head, []byte(`"jobs"`))
}

// hasExt recognises a file by its extensions (a trailing .gz aside).
func hasExt(exts ...string) func(string) bool {
	return func(path string) bool {
		if path == "" || isDirectory(path) {
			return false
		}
		name := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
		for _, e := range exts {
			if strings.HasSuffix(name, e) {
				return true
			}
		}
		return false
	}
}

func isDirectory(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
