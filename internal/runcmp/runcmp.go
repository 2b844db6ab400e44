// Package runcmp compares run directories for the commands' tests: a
// summary without its wall-clock columns, and every table byte for byte;
// and it reads a run's CSV tables (csv.go).
package runcmp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedsim/schedsim/metrics"
)

// MaskedSummary is dir's summary with the wall-clock columns (those that
// measure the machine, not the run: metrics.IsTimingColumn) as "-".
func MaskedSummary(dir string) (string, error) {
	row, err := metrics.ReadRunSummary(dir)
	if err != nil {
		return "", err
	}
	cells := slices.Clone(row.Values)
	for i, name := range row.Names {
		if metrics.IsTimingColumn(name) {
			cells[i] = "-"
		}
	}
	return strings.Join(row.Names, ",") + "\n" + strings.Join(cells, ","), nil
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
