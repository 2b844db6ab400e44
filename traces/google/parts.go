package google

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedsim/schedsim/traces"
)

// Version is the trace version a directory holds.
type Version int

// The two published versions.
const (
	V2011 Version = iota + 1 // clusterdata-2011-2, format + schema v2.1: headerless CSV part files
	V2019                    // clusterdata-2019, trace format v3: JSON Lines as BigQuery exports them
)

func (v Version) String() string {
	switch v {
	case V2011:
		return "google2011"
	case V2019:
		return "google2019"
	}
	return fmt.Sprintf("Version(%d)", int(v))
}

// The tables each version is read from: required first, then optional.
var (
	tables2011 = []string{"task_events", "job_events", "machine_events", "machine_attributes", "task_constraints"}
	tables2019 = []string{"instance_events", "collection_events", "machine_events", "machine_attributes"}
)

func required(table string) bool {
	switch table {
	case "task_events", "job_events", "instance_events", "collection_events", "machine_events":
		return true
	}
	return false
}

// Tables lists each table's part files, in the order they are read.
type Tables map[string][]string

// FindTables lists the part files of each table under dir. Version 2011:
// dir/<table>/part-?????-of-?????.csv[.gz] (any .csv or .csv.gz file of
// the table's directory). Version 2019: dir/<table>-*.json[.gz] (the
// bucket's names, e.g. instance_events-000000000000.json.gz) or
// dir/<table>/*.json[.gz]; .jsonl is accepted too. Parts are read in name
// order; a missing required table is an error.
func FindTables(dir string, v Version) (Tables, error) {
	t := Tables{}
	names := tables2011
	if v == V2019 {
		names = tables2019
	}
	for _, name := range names {
		var parts []string
		if sub := filepath.Join(dir, name); isDir(sub) {
			entries, err := os.ReadDir(sub)
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if !e.IsDir() && hasDataExt(e.Name(), v) {
					parts = append(parts, filepath.Join(sub, e.Name()))
				}
			}
		}
		if v == V2019 {
			matches, _ := filepath.Glob(filepath.Join(dir, name+"-*"))
			for _, m := range matches {
				if !isDir(m) && hasDataExt(m, v) {
					parts = append(parts, m)
				}
			}
		}
		sort.Strings(parts)
		if len(parts) == 0 && required(name) {
			want := filepath.Join(dir, name, "part-00000-of-00001.csv.gz")
			if v == V2019 {
				want = filepath.Join(dir, name+"-000000000000.json.gz")
			}
			return nil, fmt.Errorf("%s: no %s table (want e.g. %s)", dir, name, want)
		}
		if len(parts) > 0 {
			t[name] = parts
		}
	}
	return t, nil
}

// Sniff tells which version a directory holds: task_events/ is 2011,
// instance_events (a directory or instance_events-* files) is 2019.
func Sniff(dir string) (Version, bool) {
	if isDir(filepath.Join(dir, "task_events")) {
		return V2011, true
	}
	if isDir(filepath.Join(dir, "instance_events")) {
		return V2019, true
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "instance_events-*")); len(m) > 0 {
		return V2019, true
	}
	return 0, false
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func hasDataExt(name string, v Version) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	if v == V2011 {
		return strings.HasSuffix(n, ".csv")
	}
	return strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".jsonl")
}

// maxLine bounds one record's line: longer lines are bad records.
const maxLine = 1 << 20

// lineReader reads one part file line by line, gunzipping it when it
// starts with the gzip magic.
type lineReader struct {
	path string
	line int
	f    io.Closer
	sc   *bufio.Scanner
}

func openLines(path string) (*lineReader, error) {
	in, f, err := traces.OpenFile(path)
	if err != nil {
		return nil, err
	}
	l := &lineReader{path: path, f: f}
	l.sc = bufio.NewScanner(in)
	l.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return l, nil
}

// next returns the next non-empty line (without its end of line), or
// io.EOF. A line too long is a *traces.ParseError that ends the file.
func (l *lineReader) next() ([]byte, error) {
	for l.sc.Scan() {
		l.line++
		b := bytes.TrimRight(l.sc.Bytes(), "\r")
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		return b, nil
	}
	err := l.sc.Err()
	switch {
	case err == nil:
		return nil, io.EOF
	case errors.Is(err, bufio.ErrTooLong):
		return nil, &traces.ParseError{File: l.path, Line: l.line + 1, Err: fmt.Errorf("line longer than %d bytes", maxLine)}
	}
	return nil, fmt.Errorf("%s: %w", l.path, err)
}

func (l *lineReader) close() {
	l.f.Close()
}
