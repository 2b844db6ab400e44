package runcmp

import (
	"encoding/csv"
	"os"
	"testing"
)

// ReadCSV reads a CSV table a run wrote (jobs.csv, summary.csv…), header
// row first, failing the test if it cannot.
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// ReadRecords reads a CSV table as one column → value map per row.
func ReadRecords(t testing.TB, path string) []map[string]string {
	t.Helper()
	rows := ReadCSV(t, path)
	if len(rows) == 0 {
		t.Fatalf("%s: no header", path)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := make(map[string]string, len(r))
		for i, col := range rows[0] {
			m[col] = r[i]
		}
		out = append(out, m)
	}
	return out
}
