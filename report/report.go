package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/metrics"
)

// Generate reads the run directories and writes the report into out
// (see Write).
func Generate(dirs []string, out string) ([]string, error) {
	runs, err := LoadRuns(dirs)
	if err != nil {
		return nil, err
	}
	return Write(runs, out)
}

// LoadRuns reads run directories in order (run i gets colour i) and makes
// their labels unique. The CLI calls it apart from Write so that a bad
// directory is a usage error and a failed write is a run error.
func LoadRuns(dirs []string) ([]*Run, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("report: no run directory")
	}
	runs := make([]*Run, 0, len(dirs))
	for _, d := range dirs {
		r, err := Load(d)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	uniqueLabels(runs)
	return runs, nil
}

// Write writes into out one PNG and one SVG per figure and index.html.
// Every file is written atomically (temp + rename), index.html last, so
// its presence means the report is complete. It returns the paths
// written, in order.
func Write(runs []*Run, out string) ([]string, error) {
	figs, err := Figures(runs)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	var written []string
	write := func(name string, data []byte) error {
		path := filepath.Join(out, name)
		err := metrics.WriteFileAtomic(path, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			return err
		}
		written = append(written, path)
		return nil
	}
	pngs := map[string][]byte{}
	for _, f := range figs {
		for _, ext := range []string{"png", "svg"} {
			wt, err := f.Plot.WriterTo(figW, figH, ext)
			if err != nil {
				return nil, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			var buf bytes.Buffer
			if _, err := wt.WriteTo(&buf); err != nil {
				return nil, fmt.Errorf("figure %s: %w", f.Name, err)
			}
			if ext == "png" {
				pngs[f.Name] = buf.Bytes()
			}
			if err := write(f.Name+"."+ext, buf.Bytes()); err != nil {
				return nil, err
			}
		}
	}
	var page bytes.Buffer
	if err := writeIndex(&page, runs, figs, pngs); err != nil {
		return nil, err
	}
	if err := write("index.html", page.Bytes()); err != nil {
		return nil, err
	}
	return written, nil
}
