package sweep

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/experiment"
)

// ShardSummaryPath is where shard index of count writes its summary:
// DIR/shards/<i>-of-<n>.csv.
func ShardSummaryPath(dir string, index, count int) string {
	return filepath.Join(dir, experiment.ShardsDir, fmt.Sprintf("%d-of-%d.csv", index, count))
}

// writeSummary writes DIR/summary.parquet and DIR/summary.csv.
func writeSummary(dir string, spec *experiment.Spec, runs iter.Seq2[int, experiment.Run]) error {
	cols, err := spec.Summary(dir, runs)
	if err != nil {
		return err
	}
	return metrics.WriteSweepSummary(dir, cols)
}

// writeShardSummary writes a shard's summary CSV (its runs only).
func writeShardSummary(path string, spec *experiment.Spec, dir string, runs iter.Seq2[int, experiment.Run]) error {
	cols, err := spec.Summary(dir, runs)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return metrics.WriteSweepSummaryCSV(path, cols)
}
