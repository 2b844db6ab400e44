package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// TestResultIsTheSummaryWritten: the row Replay returns is the row of
// summary.csv (and of summary.parquet, printed as the CSV prints it), so
// its callers need not read the run directory back.
func TestResultIsTheSummaryWritten(t *testing.T) {
	for _, format := range []string{metrics.FormatParquet, metrics.FormatCSV} {
		t.Run(format, func(t *testing.T) {
			cfg := Default()
			cfg.Trace, cfg.Format, cfg.Quiet = smallTrace, format, true
			cfg.Out = filepath.Join(t.TempDir(), "run")
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			res, err := Replay(context.Background(), &cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Dir != cfg.Out {
				t.Errorf("Dir = %q, want %q", res.Dir, cfg.Out)
			}
			if res.Events <= 0 || res.Summary.Text(metrics.ColEvents) == "" {
				t.Errorf("Events = %d, summary's %q", res.Events, res.Summary.Text(metrics.ColEvents))
			}
			written, err := metrics.ReadRunSummary(res.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Summary.Names, written.Names) || !slices.Equal(res.Summary.Values, written.Values) {
				t.Errorf("Result.Summary\n%v\n%v\nsummary.csv\n%v\n%v", res.Summary.Names, res.Summary.Values, written.Names, written.Values)
			}
			if format != metrics.FormatParquet {
				return
			}
			// Without summary.csv the reader falls back on summary.parquet.
			if err := os.Remove(filepath.Join(res.Dir, "summary.csv")); err != nil {
				t.Fatal(err)
			}
			fromParquet, err := metrics.ReadRunSummary(res.Dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fromParquet.Names, written.Names) || !slices.Equal(fromParquet.Values, written.Values) {
				t.Errorf("summary.parquet read as\n%v\nwant summary.csv's\n%v", fromParquet.Values, written.Values)
			}
		})
	}
}
