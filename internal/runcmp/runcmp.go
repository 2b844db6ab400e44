// Package runcmp compares run directories for the commands' tests: a
// summary without its wall-clock columns, and every table byte for byte.
package runcmp

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// WallColumns are the summary columns that measure the machine, not the
// run: they differ between two runs of the same spec.
var WallColumns = map[string]bool{"wall_s": true, "events_per_s": true, "jobs_per_s": true}

// MaskedSummary is dir's summary.csv with the wall-clock columns as "-".
func MaskedSummary(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, "summary.csv"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return "", err
	}
	if len(rows) != 2 {
		return "", fmt.Errorf("%s: want a header and one row, got %d rows", f.Name(), len(rows))
	}
	for i, name := range rows[0] {
		if WallColumns[name] {
			rows[1][i] = "-"
		}
	}
	return strings.Join(rows[0], ",") + "\n" + strings.Join(rows[1], ","), nil
}

// SameRun reports how run directories a and b differ: the same files, each
// byte for byte, but the summary's wall-clock columns and run.yaml's
// provenance (which records when and how long the run took). Files under
// skip are not compared.
func SameRun(a, b string, skip ...string) error {
	names := func(dir string) ([]string, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, e := range entries {
			if !e.IsDir() && !slices.Contains(skip, e.Name()) {
				out = append(out, e.Name())
			}
		}
		return out, nil
	}
	na, err := names(a)
	if err != nil {
		return err
	}
	nb, err := names(b)
	if err != nil {
		return err
	}
	if !slices.Equal(na, nb) {
		return fmt.Errorf("different files: %v and %v", na, nb)
	}
	var problems []string
	for _, n := range na {
		switch {
		case n == "summary.csv" || strings.HasPrefix(n, "summary."):
			if n != "summary.csv" {
				continue // the table form of the same row, with the wall columns
			}
			sa, err1 := MaskedSummary(a)
			sb, err2 := MaskedSummary(b)
			if err1 != nil || err2 != nil || sa != sb {
				problems = append(problems, fmt.Sprintf("summary.csv differs:\n%s\n%s", sa, sb))
			}
		case n == "run.yaml":
			ra, err1 := specPart(filepath.Join(a, n))
			rb, err2 := specPart(filepath.Join(b, n))
			if err1 != nil || err2 != nil || ra != rb {
				problems = append(problems, fmt.Sprintf("run.yaml's spec differs:\n%s\n%s", ra, rb))
			}
		default:
			da, err1 := os.ReadFile(filepath.Join(a, n))
			db, err2 := os.ReadFile(filepath.Join(b, n))
			if err1 != nil || err2 != nil || !bytes.Equal(da, db) {
				problems = append(problems, n+" differs")
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s and %s: %s", a, b, strings.Join(problems, "; "))
	}
	return nil
}

// specPart is run.yaml up to its provenance section.
func specPart(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(string(data), "\nprovenance:")
	return s, nil
}
