package run

import (
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// version is the release; Version adds the VCS revision the binary was
// built from.
const version = "0.2.0"

// Version is schedsim's version and, when the binary knows it, the VCS
// revision it was built from ("0.2.0 (rev 1a2b3c4d5e6f, modified)").
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return version
	}
	return version + " (rev " + rev + modified + ")"
}

// provenance is how a run was made: what run.yaml records besides the
// spec, for people and reports. Loading a run.yaml skips it.
type provenance struct {
	started time.Time
	wall    float64
}

type provenanceRecord struct {
	Provenance struct {
		Schedsim    string  `yaml:"schedsim"`
		Go          string  `yaml:"go"`
		Seed        uint64  `yaml:"seed"`
		Started     string  `yaml:"started"`
		WallSeconds float64 `yaml:"wall_s"`
		Trace       struct {
			Name     string         `yaml:"name"`
			Format   string         `yaml:"format"`
			SHA256   string         `yaml:"sha256"`
			Skipped  int            `yaml:"skipped_records"`
			Reasons  map[string]int `yaml:"skip_reasons,omitempty"`
			Epoch    string         `yaml:"epoch,omitempty"`
			TimeZone string         `yaml:"time_zone,omitempty"`
		} `yaml:"trace"`
		Cluster struct {
			Source    string   `yaml:"source"`
			Nodes     int      `yaml:"nodes"`
			Resources []string `yaml:"resources"`
			Totals    []string `yaml:"totals"`
			// Power is the power model the energy figures rest on: the
			// SWF default assumed per node, "from the cluster file", or
			// "none" (energy is null).
			Power string `yaml:"power"`
		} `yaml:"cluster"`
		// Transforms repeats the what-if keys that are set (nil when
		// none), so that a reader of provenance (compare) sees every way
		// the run's workload and cluster differ from the trace's.
		Transforms *TransformSpec `yaml:"transforms,omitempty"`
		// Calibration says why the calib_* columns are null when the
		// run's transforms make it incomparable with its history.
		Calibration string `yaml:"calibration,omitempty"`
	} `yaml:"provenance"`
}

func (p provenance) record(cfg *Spec, w *Workload, c *sim.Cluster, skips traces.Skips) *provenanceRecord {
	var r provenanceRecord
	pr := &r.Provenance
	pr.Schedsim, pr.Go, pr.Seed = Version(), runtime.Version(), cfg.Seed
	pr.Started = p.started.UTC().Format(time.RFC3339)
	pr.WallSeconds = float64(int64(p.wall*1000)) / 1000
	pr.Trace.Name, pr.Trace.Format, pr.Trace.SHA256 = w.Name, w.Format, w.SHA256
	pr.Trace.Skipped, pr.Trace.Reasons = skips.Total, skips.ByReason
	if !w.Epoch.IsZero() {
		pr.Trace.Epoch = w.Epoch.UTC().Format(time.RFC3339)
		pr.Trace.TimeZone = w.TimeZone
	}
	pr.Cluster.Source, pr.Cluster.Nodes, pr.Cluster.Resources = w.Cluster, len(c.Nodes), c.Resources
	pr.Cluster.Power = powerSource(cfg, w, c)
	if t := cfg.TransformSpec; !reflect.ValueOf(t).IsZero() {
		pr.Transforms = &t
	}
	if by := cfg.uncalibrated(); by != "" {
		pr.Calibration = "n/a: " + by + " changed the jobs' timing, so no recorded start applies"
	}
	for i, name := range c.Resources {
		pr.Cluster.Totals = append(pr.Cluster.Totals, name+": "+c.TotalCapacity(i).String())
	}
	return &r
}

// relativePaths makes the spec's file paths relative to the run directory
// dir, so that a run.yaml still finds its inputs when loaded from there
// (Load resolves them against the file's directory).
func relativePaths(dir string, c *Spec) {
	if dir == "" {
		return
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	for _, p := range c.paths() {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(absDir, abs); err == nil {
			*p = rel
		}
	}
}

// WriteSpec writes c as a run spec file at path (no provenance), its file
// paths relative to path's directory, so that `replay --config path`
// replays it from anywhere.
func WriteSpec(path string, c Spec) error {
	c.Out, c.Quiet = "", false
	relativePaths(filepath.Dir(path), &c)
	return metrics.WriteFileAtomic(path, func(out io.Writer) error {
		enc := yaml.NewEncoder(out)
		enc.SetIndent(2)
		if err := enc.Encode(&c); err != nil {
			return err
		}
		return enc.Close()
	})
}
