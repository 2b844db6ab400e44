package formats

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/sacct"
	"github.com/schedsim/schedsim/traces/slurmconf"
	"github.com/schedsim/schedsim/traces/swf"
)

// Format is one registered trace format.
type Format struct {
	Name string
	Doc  string
	// Cacheable: opening the trace depends on nothing but Request's
	// cache-key fields (Key), so a sweep may read it once for many runs.
	Cacheable bool
	// Extensions are the file name endings of the format (".swf"), each
	// also read gzipped (".swf.gz"): sniffing recognises them when ByPath
	// is nil, and run directories are named without them.
	Extensions []string
	// ByPath recognises the format from a path alone (a trace directory,
	// a published file name); nil: by Extensions.
	ByPath func(path string) bool
	// ByContent recognises the format from the first bytes of a file
	// (decompressed, leading blanks removed); nil when it cannot.
	ByContent func(head []byte) bool
	// Open opens the trace.
	Open func(r Request) (*Opened, error)
	// NeedsCluster: the trace describes no cluster, and the run must
	// give one (--cluster, --platform) before it is read.
	NeedsCluster bool
	// JobCheckpoints: its jobs may carry their own checkpoint interval,
	// which the replay honours even without --checkpoint.
	JobCheckpoints bool
	// LocalTimes: the trace records calendar times without a zone, read
	// in --time-zone (UTC when none is given, which the replay says).
	LocalTimes bool
}

// registry lists the formats in the order sniffing tries them: the
// cloud traces' published names first, then directories, then
// extensions, then content.
var registry = []Format{
	{Name: "alibaba2018", Doc: "Alibaba cluster-trace-v2018: the trace directory or batch_task*.csv[.gz] (machine_meta gives the cluster)", ByPath: isAlibaba, Open: openAlibaba},
	{Name: "azure", Doc: "Azure Public Dataset V2 vmtable*.csv[.gz] (give --cluster)", ByPath: isAzure, Open: openAzure},
	{Name: "google2011", Doc: "Google cluster trace 2011 directory (task_events/, machine_events/ …)", ByPath: isGoogle2011, Open: openGoogle2011},
	{Name: "google2019", Doc: "Google cluster trace 2019 directory (instance_events, collection_events, machine_events)", ByPath: isGoogle2019, Open: openGoogle2019},
	{Name: "swf", Doc: "Standard Workload Format .swf[.gz] (Parallel Workloads Archive); the header gives the cluster", Cacheable: true, Extensions: []string{".swf"}, ByContent: looksSWF, Open: openSWF},
	{Name: "native", Doc: "schedsim's own jobs table: .parquet, .jsonl/.ndjson or .csv[.gz]", Cacheable: true, Extensions: []string{".parquet", ".jsonl", ".ndjson", ".csv"}, ByContent: isParquet, Open: openNative,
		NeedsCluster: true, JobCheckpoints: true},
	{Name: "sacct", Doc: "Slurm accounting: sacct --allocations --parsable2 output with its header line (.sacct, or sniffed); calendar times in --time-zone", Extensions: []string{".sacct"}, ByContent: sacct.Sniff, Open: openSacct, LocalTimes: true},
	{Name: "batsim", Doc: "Batsim JSON workload (.json); --platform gives hosts and power", Cacheable: true, Extensions: []string{".json"}, ByContent: looksBatsim, Open: openBatsim},
}

// Request is what opening a trace needs.
type Request struct {
	// Path is the trace file or directory; Data, when not nil, is the
	// trace's bytes (an embedded trace), and Path only names it.
	Path string
	Data []byte
	// Format is the registered name; "" sniffs it (Sniff).
	Format string
	// Strict stops at the first bad record instead of skipping it.
	Strict bool
	// ClusterGiven: the run names its cluster (--cluster, --platform), so
	// the cluster a trace describes is not built.
	ClusterGiven bool
	// SWFModel and ProcsPerNode shape the cluster of an SWF header.
	SWFModel     swf.Model
	ProcsPerNode int
	// GoogleScale converts the Google traces' normalised amounts
	// (google.ParseScale's syntax).
	GoogleScale string
	// TimeZone is the site's time zone for traces that record calendar
	// times without one; nil for UTC.
	TimeZone *time.Location
	// SlurmCluster is the run's cluster when it comes from a slurm.conf:
	// a Slurm accounting dump is then confined to its partitions.
	SlurmCluster *slurmconf.Cluster
}

// Key is the part of a request that opening a cacheable format reads.
type Key struct {
	Path, Format, SWFModel string
	ProcsPerNode           int
	Strict, ClusterGiven   bool
}

// Key returns r's cache key.
func (r Request) Key() Key {
	return Key{Path: r.Path, Format: r.Format, SWFModel: string(r.SWFModel), ProcsPerNode: r.ProcsPerNode, Strict: r.Strict, ClusterGiven: r.ClusterGiven}
}

func (r Request) options() traces.Options { return traces.Options{Strict: r.Strict} }

// Opened is an opened trace.
type Opened struct {
	Format string
	Source sim.Source
	Skips  func() traces.Skips
	Close  func()
	// Records is the number of records, for progress; 0 when unknown.
	Records int
	// Nodes is the cluster the trace describes (nil when it describes
	// none or the request gave one), Defaults its default requirements,
	// Cluster a line saying where it came from.
	Nodes    []sim.NodeSpec
	Defaults []sim.Quantity
	Cluster  string
	// NodeEvents are node changes the trace itself records (machines
	// that fail and come back), replayed with the run's own.
	NodeEvents []sim.NodeEvent
	// Traitless: no job can carry placement traits, so the plain first
	// fit is exact. Constrained: jobs carry constraints that only the
	// placement pipeline honours.
	Traitless, Constrained bool
	// NoDependencies: no job can have dependencies (sim.Config's).
	NoDependencies bool
	// ClusterModel is the cluster model (swf.Model) when the cluster
	// came from the trace's SWF header; "" otherwise.
	ClusterModel string
	// Epoch is the calendar time the trace's time 0 stands for, and
	// TimeZone the site's zone name; zero and "" when unknown.
	Epoch    time.Time
	TimeZone string
}

// Lookup returns the format called name.
func Lookup(name string) (Format, bool) {
	i := slices.IndexFunc(registry, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return registry[i], true
}

// Register adds a trace format written outside this repository: runs,
// experiments, sniffing and the trace cache then read it like the
// built-in ones. Its name must be new, and it needs Open. Formats
// registered later are sniffed after the built-in ones. Register before
// replaying, from an init function or main: the registry is not guarded
// against concurrent runs.
func Register(f Format) error {
	switch {
	case f.Name == "" || strings.ContainsAny(f.Name, " \t\n,"):
		return fmt.Errorf("trace format name %q: want a word", f.Name)
	case f.Open == nil:
		return fmt.Errorf("trace format %q: Open is nil", f.Name)
	}
	if _, ok := Lookup(f.Name); ok {
		return fmt.Errorf("trace format %q is already registered", f.Name)
	}
	registry = append(registry, f)
	return nil
}

// TrimExtensions is a trace file's name without its format's extension
// (of any registered format) and ".gz": a run's name.
func TrimExtensions(name string) string {
	name = strings.TrimSuffix(name, ".gz")
	for _, f := range registry {
		for _, e := range f.Extensions {
			if trimmed, ok := strings.CutSuffix(name, e); ok {
				return trimmed
			}
		}
	}
	return name
}

// All returns the registered formats in sniffing order.
func All() []Format { return slices.Clone(registry) }

// Names returns the registered format names, sorted.
func Names() []string {
	names := make([]string, len(registry))
	for i, f := range registry {
		names[i] = f.Name
	}
	slices.Sort(names)
	return names
}

// Check returns an error naming the known formats when name is not one.
func Check(name string) error {
	if _, ok := Lookup(name); !ok {
		return fmt.Errorf("unknown trace format %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return nil
}

// Open opens the trace of r, sniffing its format when r.Format is "".
// Errors are bad input (a missing file, a malformed header).
func Open(r Request) (*Opened, error) {
	if r.Format == "" {
		f, err := Sniff(r.Path, r.Data)
		if err != nil {
			return nil, err
		}
		r.Format = f
	}
	f, ok := Lookup(r.Format)
	if !ok {
		return nil, Check(r.Format)
	}
	o, err := f.Open(r)
	if err != nil {
		return nil, err
	}
	o.Format = f.Name
	if o.Close == nil {
		o.Close = func() {}
	}
	return o, nil
}
