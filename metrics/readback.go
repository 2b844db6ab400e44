package metrics

import (
	"fmt"
	"os"

	"github.com/schedsim/schedsim/traces"
)

// ReadSummaryCSV reads a run's summary.csv into column name → value, the
// text as written ("" for a null). compare and the tests use it; tools
// without Arrow can do the same with any CSV reader.
func ReadSummaryCSV(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := traces.NewCSVReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) != 2 {
		return nil, fmt.Errorf("%s: want a header and one row, got %d lines", path, len(rows))
	}
	m := make(map[string]string, len(rows[0]))
	for i, name := range rows[0] {
		m[name] = rows[1][i]
	}
	return m, nil
}
