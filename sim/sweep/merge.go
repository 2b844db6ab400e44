package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// Merge writes the summary of the sweep in out (DIR/summary.csv and
// DIR/summary.parquet) once every run of its experiment is complete there,
// after copying into out the runs of sources, shard directories of the
// same experiment, when given. maxRuns is the sweep's --max-runs. It
// returns how many runs the summary holds.
func Merge(out string, sources []string, maxRuns int) (int, error) {
	specDir := out
	if len(sources) > 0 {
		specDir = sources[0]
	}
	specPath := filepath.Join(specDir, experiment.SpecFile)
	specBytes, err := os.ReadFile(specPath)
	if err != nil {
		return 0, run.BadInput(fmt.Errorf("%s is not a sweep directory: %w", specDir, err))
	}
	spec, err := experiment.Load(specPath)
	if err != nil {
		return 0, run.BadInput(err)
	}
	spec.MaxRuns = maxRuns
	plan, err := spec.Plan()
	if err != nil {
		return 0, run.BadInput(err)
	}
	if len(sources) > 0 {
		if err := checkSweepDir(out, specPath, specBytes); err != nil {
			return 0, err
		}
		if err := os.MkdirAll(out, 0o777); err != nil {
			return 0, run.Failed(err)
		}
	}
	release, err := lockMerge(out)
	if err != nil {
		return 0, err
	}
	defer release()
	if len(sources) > 0 {
		if err := gatherShards(out, sources, specBytes, plan.All()); err != nil {
			return 0, err
		}
	}
	if n, first := experiment.Missing(out, plan.All(), listMissing); n > 0 {
		return 0, run.Failed(missingError(out, append([]string{out}, sources...), plan.Len(), n, first))
	}
	if err := writeSummary(out, spec, plan.All()); err != nil {
		return 0, run.Failed(err)
	}
	return plan.Len(), nil
}

// gatherShards copies every complete run of the shard directories that
// out lacks into out/runs (and its weight profile), after checking that
// every shard ran the same experiment.
func gatherShards(out string, sources []string, specBytes []byte, runs iter.Seq2[int, experiment.Run]) error {
	for _, src := range sources {
		b, err := os.ReadFile(filepath.Join(src, experiment.SpecFile))
		if err != nil {
			return run.BadInput(fmt.Errorf("%s is not a sweep directory: %w", src, err))
		}
		if !bytes.Equal(b, specBytes) {
			return run.BadInput(fmt.Errorf("%s ran another experiment than %s (experiment.yaml differs)", src, sources[0]))
		}
	}
	if err := os.MkdirAll(filepath.Join(out, experiment.RunsDir), 0o755); err != nil {
		return run.Failed(err)
	}
	if err := writeFileIfAbsent(filepath.Join(out, experiment.SpecFile), specBytes); err != nil {
		return err
	}
	for _, r := range runs {
		if experiment.Done(out, r.Key) {
			continue
		}
		for _, src := range sources {
			if !experiment.Done(src, r.Key) {
				continue
			}
			stage := experiment.StageDir(out, r.Key)
			os.RemoveAll(stage)
			if err := copyFlatDir(experiment.RunDir(src, r.Key), stage); err != nil {
				os.RemoveAll(stage)
				return run.Failed(err)
			}
			final := experiment.RunDir(out, r.Key)
			os.RemoveAll(final)
			if err := os.Rename(stage, final); err != nil {
				return run.Failed(err)
			}
			metrics.SyncDir(filepath.Dir(final)) // the rename, durable
			if prof := filepath.Join(src, "profiles", r.Key+".yaml"); fileExists(prof) {
				data, err := os.ReadFile(prof)
				if err == nil {
					err = WriteProfile(filepath.Join(out, "profiles", r.Key+".yaml"), data)
				}
				if err != nil {
					return run.Failed(err)
				}
			}
			break
		}
	}
	return nil
}

// listMissing is how many missing runs merge lists.
const listMissing = 20

// missingError lists the first missing runs (n of all are missing) of dir
// with the shard each belongs to, for every shard count the shard
// summaries of dirs show.
func missingError(dir string, dirs []string, all, n int, first []experiment.MissingRun) error {
	counts := shardCounts(dirs)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d runs are missing from %s:", n, all, filepath.Join(dir, experiment.RunsDir))
	for _, m := range first {
		fmt.Fprintf(&b, "\n  %s", m.Key)
		for _, c := range counts {
			fmt.Fprintf(&b, " (shard %d/%d)", m.Pos%c, c)
		}
	}
	if n > len(first) {
		fmt.Fprintf(&b, "\n  … and %d more", n-len(first))
	}
	b.WriteString("\nrun the shards that hold them again (finished runs are kept), then merge")
	return errors.New(b.String())
}

var shardFile = regexp.MustCompile(`^\d+-of-(\d+)\.csv$`)

// shardCounts are the shard counts n of the dirs' shards/<i>-of-<n>.csv.
func shardCounts(dirs []string) []int {
	var entries []os.DirEntry
	for _, dir := range dirs {
		e, _ := os.ReadDir(filepath.Join(dir, experiment.ShardsDir))
		entries = append(entries, e...)
	}
	seen := map[int]bool{}
	var counts []int
	for _, e := range entries {
		if m := shardFile.FindStringSubmatch(e.Name()); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n > 0 && !seen[n] {
				seen[n] = true
				counts = append(counts, n)
			}
		}
	}
	return counts
}

// copyFlatDir copies the regular files of src into a new directory dst,
// each synced to disk, and syncs dst (run directories hold no
// subdirectories).
func copyFlatDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if err := metrics.CopyFileSynced(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	metrics.SyncDir(dst) // the files' names, before the directory is renamed into place
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// writeFileIfAbsent writes data at path unless a file with the same bytes
// is there; other bytes are an error.
func writeFileIfAbsent(path string, data []byte) error {
	old, err := os.ReadFile(path)
	if err == nil {
		if !bytes.Equal(old, data) {
			return run.BadInput(fmt.Errorf("%s holds another experiment", path))
		}
		return nil
	}
	err = metrics.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return run.Failed(err)
	}
	return nil
}
