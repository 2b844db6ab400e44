package report

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
)

// Run is what the figures and the page need from one run directory.
type Run struct {
	Dir   string
	Label string // trace · cluster · queue · backfill · placement, made unique
	// Parts are the label's dimensions, which the figures' legends reduce
	// to those that differ between runs.
	Parts []LabelPart
	// SharesConfigured is whether the run gave tenants target shares
	// (lattice shares): without them every target is an equal split, and
	// usage ÷ share says nothing a planner asked about.
	SharesConfigured bool
	// Epoch is the date of the trace's time 0 when the run's jobs table
	// gives calendar times; nil otherwise, and time axes count from the
	// run's first event.
	Epoch *time.Time
	// Loc is the trace's time zone (run.yaml's provenance), in which
	// calendar axes count hours and days; UTC when it names none.
	Loc *time.Location
	// PoolProcs is the processors of a run in the SWF pool model, whose
	// Gantt chart has a row per processor; 0 for other runs.
	PoolProcs int
	// ClusterNodes is the cluster's node count (run.yaml), every one of
	// which a nodes-model Gantt chart shows.
	ClusterNodes int
	// SummaryCols and SummaryVals are summary.csv's header and row, the
	// text as written so the page shows exactly what the file holds.
	SummaryCols []string
	SummaryVals map[string]string

	Wait []float64 // wait_s of started jobs
	// SimWait and RecordedWait are, for each measured job that has a
	// recorded start (recorded_start_s) and started in the run, its wait
	// in the run and on the traced system, from its trace submit: what
	// the summary's calib_* columns compare. Empty when the trace records
	// no start, or the run's transforms changed the jobs.
	SimWait, RecordedWait []float64
	BSLD                  []float64 // bsld of ended jobs
	// Jobs are the jobs table's rows the Gantt chart draws.
	Jobs []GanttJob

	// Time series, one entry per row of timeseries.*: the values hold from
	// Time[i] until Time[i+1].
	Time     []float64 // s
	Queued   []float64 // jobs
	Power    []float64 // W
	Util     []float64 // fraction of the power resource's capacity
	UtilName string    // the utilization column shown
	// Frag is the power resource's fragmentation (share of its free
	// capacity a typical task cannot use; NaN when nothing is free) and
	// Asleep the nodes powered down; nil when the run has no such column.
	Frag   []float64
	Asleep []float64 // nodes

	// Tenants are the rows of tenants.*, in the file's order (by name);
	// nil for a run written before the table existed.
	Tenants []Tenant
}

// Load reads a run directory. summary.csv is checked first: replay renames
// it last, so its absence means the directory is not a (complete) run.
func Load(dir string) (*Run, error) {
	r := &Run{Dir: dir}
	if err := r.readSummary(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "run.yaml")); err != nil {
		return nil, fmt.Errorf("%s is not a run directory: no run.yaml", dir)
	}
	rc, err := readRunConfig(filepath.Join(dir, "run.yaml"))
	if err != nil {
		return nil, err
	}
	s := r.SummaryVals
	queue := s["queue"]
	if rc.profile != "" {
		queue += "/" + rc.profile
	}
	if r.PoolProcs, err = metrics.PoolProcessors(dir); err != nil {
		return nil, err
	}
	if r.PoolProcs > 0 { // the SWF pool model: one node that stands for a pool of processors
		rc.cluster = "a pool of " + words.Count(r.PoolProcs, "processor")
	}
	r.Parts = []LabelPart{{"trace", s["trace"]}, {"cluster", rc.cluster}, {"queue", queue},
		{"backfill", s["backfill"]}, {"placement", rc.placement}}
	if sweep, key, ok := inSweep(dir); ok {
		// The names the user gave in the experiment: the sweep's directory,
		// the trace's and the cluster's names of its run key, the replica.
		parts := strings.Split(key, "__")
		r.Parts = append([]LabelPart{{"sweep", sweep}}, r.Parts...)
		if len(parts) >= 2 {
			r.Parts[1].Value, r.Parts[2].Value = parts[0], parts[1]
		}
		if seed, ok := strings.CutPrefix(parts[len(parts)-1], "seed="); ok {
			r.Parts = append(r.Parts, LabelPart{"replica", seed})
		}
	}
	var vals []string
	for _, p := range r.Parts {
		if p.Value != "" {
			vals = append(vals, p.Value)
		}
	}
	r.Label = strings.Join(vals, " · ")
	r.SharesConfigured = rc.shares
	r.ClusterNodes = rc.nodes
	r.Loc = time.UTC
	if rc.timeZone != "" {
		if r.Loc, err = time.LoadLocation(rc.timeZone); err != nil {
			return nil, fmt.Errorf("%s: provenance time_zone: %w", filepath.Join(dir, "run.yaml"), err)
		}
	}

	jobs, err := readTable(dir, "jobs", tableSpec{
		num:          []string{"wait_s", "bsld", "submit_s", "start_s", "end_s"},
		optional:     []string{"recorded_start_s", "tasks"},
		text:         []string{"job_id", "user", "state", "node_list"},
		optionalText: []string{"submit_time", "measured", "request"},
	})
	if err != nil {
		return nil, err
	}
	r.Wait = finite(jobs.num["wait_s"])
	r.SimWait, r.RecordedWait = calibrationWaits(jobs)
	r.BSLD = finite(jobs.num["bsld"])
	r.Jobs = ganttJobs(jobs)
	if len(jobs.text["request"]) != len(r.Jobs) {
		r.PoolProcs = 0 // a jobs table written before the request column: drawn by node
	}
	if r.PoolProcs > 0 {
		if err := assignPool(r.Jobs, jobs, r.PoolProcs); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
	}
	r.Epoch = epochOf(jobs)

	ts, err := readTable(dir, "timeseries", tableSpec{
		num:      []string{"time_s", "queued_jobs", "power_w"},
		optional: []string{"nodes_asleep"},
		prefixes: []string{"utilization_", "frag_"},
	})
	if err != nil {
		return nil, err
	}
	r.Time, r.Queued, r.Power = ts.num["time_s"], ts.num["queued_jobs"], ts.num["power_w"]
	r.Asleep = ts.num["nodes_asleep"]
	var utilNames []string
	for _, n := range ts.prefixed {
		if strings.HasPrefix(n, "utilization_") {
			utilNames = append(utilNames, n)
		}
	}
	r.UtilName = r.utilColumn(utilNames)
	if r.UtilName != "" {
		r.Util = ts.num[r.UtilName]
		r.Frag = ts.num["frag_"+strings.TrimPrefix(r.UtilName, "utilization_")]
	}
	if r.Tenants, err = readTenants(dir); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Run) readSummary() error {
	row, err := metrics.ReadRunSummary(r.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		if st, serr := os.Stat(r.Dir); serr != nil || !st.IsDir() {
			return fmt.Errorf("%s is not a run or sweep directory: not a directory", r.Dir)
		}
		return fmt.Errorf("%s is not a run or sweep directory: no summary.csv", r.Dir)
	}
	if err != nil {
		return err
	}
	r.SummaryCols, r.SummaryVals = row.Names, row.Map()
	return nil
}

// inSweep says whether dir is a run of a sweep (SWEEP/runs/KEY, beside
// the sweep's summary.csv or experiment.yaml), and gives the sweep's
// directory name and the run's key.
func inSweep(dir string) (sweep, key string, ok bool) {
	clean := filepath.Clean(dir)
	parent := filepath.Dir(clean)
	if filepath.Base(parent) != "runs" {
		return "", "", false
	}
	top := filepath.Dir(parent)
	for _, f := range []string{"experiment.yaml", "summary.csv"} {
		if _, err := os.Stat(filepath.Join(top, f)); err == nil {
			return filepath.Base(top), filepath.Base(clean), true
		}
	}
	return "", "", false
}

// utilColumn picks the utilization column of the resource that drives
// power, the one summary's `utilization` reports: the utilization_<r>
// whose summary value equals it, else the first.
func (r *Run) utilColumn(names []string) string {
	u := r.SummaryVals[metrics.ColUtilization]
	for _, n := range names {
		if u != "" && r.SummaryVals[n] == u {
			return n
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// runConfig is what the report reads of run.yaml.
type runConfig struct {
	placement string // placement strategy; replay's default, first-fit, when unset
	profile   string // Lattice weight profile, "" for other queues
	cluster   string // the cluster's name (its file) and size
	shares    bool   // tenants have configured target shares
	timeZone  string // the trace's IANA zone, "" when unknown
	nodes     int    // the cluster's nodes
}

// readRunConfig reads run.yaml's resolved config and cluster description.
func readRunConfig(path string) (runConfig, error) {
	var rc runConfig
	b, err := os.ReadFile(path)
	if err != nil {
		return rc, err
	}
	// run.yaml is the run's spec (its keys at the top) and a provenance
	// section with the cluster's description.
	var c struct {
		Queue     string    `yaml:"queue"`
		Profile   string    `yaml:"profile"`
		Placement yaml.Node `yaml:"placement"`
		Cluster   string    `yaml:"cluster"`
		Platform  string    `yaml:"platform"`
		Lattice   struct {
			Shares map[string]float64 `yaml:"shares"`
		} `yaml:"lattice"`
		Provenance struct {
			Trace struct {
				TimeZone string `yaml:"time_zone"`
			} `yaml:"trace"`
			Cluster struct {
				Nodes  int      `yaml:"nodes"`
				Totals []string `yaml:"totals"`
			} `yaml:"cluster"`
		} `yaml:"provenance"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return rc, fmt.Errorf("%s: %w", path, err)
	}
	doc := struct {
		Cluster struct {
			Nodes  int
			Totals []string
		}
	}{}
	doc.Cluster.Nodes, doc.Cluster.Totals = c.Provenance.Cluster.Nodes, c.Provenance.Cluster.Totals
	if c.Queue == "lattice" {
		rc.profile = profileName(c.Profile)
		rc.shares = len(c.Lattice.Shares) > 0
	}
	rc.timeZone, rc.nodes = c.Provenance.Trace.TimeZone, c.Provenance.Cluster.Nodes
	rc.cluster = clusterName(c.Cluster, c.Platform, doc.Cluster.Nodes, doc.Cluster.Totals)
	rc.placement, err = placementName(path, c.Placement)
	return rc, err
}

// clusterName names a cluster for a title: its file's base name, if any,
// and its size, "1 node, cpu 100".
func clusterName(file, platform string, nodes int, totals []string) string {
	if file == "" {
		file = platform
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), ".xml")
	if file == "" {
		name = ""
	}
	var size []string
	if nodes > 0 {
		size = append(size, words.Count(nodes, "node"))
	}
	for _, t := range totals {
		if !internalResource(t) { // a partition's tag is no capacity
			size = append(size, strings.Replace(t, ": ", " ", 1))
		}
	}
	desc := strings.Join(size, ", ")
	switch {
	case name == "":
		return desc
	case desc == "":
		return name
	}
	return name + " (" + desc + ")"
}

// profileName is a profile as a label shows it: a built-in name as is, a
// profile file (a sweep's weights, named by the run's key) as "custom",
// since run labels are made unique by their directory anyway.
func profileName(p string) string {
	if strings.ContainsAny(p, `/\`) || strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") {
		return "custom"
	}
	return p
}

// placementName reads the placement strategy of run.yaml's config: a
// name, or a block with a strategy.
func placementName(path string, p yaml.Node) (string, error) {
	name := ""
	switch p.Kind {
	case yaml.ScalarNode:
		name = p.Value
	case yaml.MappingNode:
		var block struct {
			Strategy string `yaml:"strategy"`
			Spec     struct {
				Strategy string `yaml:"strategy"`
			} `yaml:"spec"`
		}
		if err := p.Decode(&block); err != nil {
			return "", fmt.Errorf("%s: placement: %w", path, err)
		}
		name = block.Spec.Strategy
		if name == "" {
			name = block.Strategy
		}
	}
	if name == "" {
		name = "first-fit"
	}
	return name, nil
}

// finite drops NaN (null) values.
func finite(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// uniqueLabels appends the directory name to labels that several runs
// share, so the page's run list can tell them apart.
func uniqueLabels(runs []*Run) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Label]++
	}
	for _, r := range runs {
		if count[r.Label] > 1 {
			r.Label += " [" + filepath.Base(filepath.Clean(r.Dir)) + "]"
		}
	}
}
