package metrics

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// Formats of the table files. Format is the file extension too.
const (
	FormatParquet = "parquet"
	FormatArrow   = "arrow" // Arrow IPC file format
	FormatCSV     = "csv"
)

// DefaultTau is the bounded-slowdown threshold of the literature (10 s):
// jobs shorter than it count as if they ran for tau, so a 1 s job that
// waited 1 s does not get slowdown 2.
const DefaultTau = 10 * sim.Second

// Options tune a Recorder. The zero value is valid.
type Options struct {
	// Format is parquet (default when ""), arrow or csv.
	Format string
	// Tau is the bounded-slowdown threshold; 0 means DefaultTau.
	Tau sim.Time
	// Labels become extra string columns of the summary (policy name,
	// seed, trace…), so summaries of many runs concatenate into one table.
	Labels []Label

	// Tenants names the job field whose value is a job's tenant for the
	// tenants table and the Jain columns: user (default when ""), group
	// or queue.
	Tenants string
	// TenantBuckets > 0 makes synthetic tenants t0…t(k−1): the numeric id
	// of the tenant field (SWF user u17 → 17) mod k, by the same function
	// as the lattice scheduler (lattice.Tenants.Of), so its tenants and
	// these agree. 0 keeps the field's values.
	TenantBuckets int
	// Shares are the tenants' target shares, any positive scale (they are
	// normalised to sum 1); nil or empty means equal shares over the
	// tenants seen. A tenant missing from Shares has target 0.
	Shares map[string]float64

	// Price and Carbon, when not nil, are the electricity price (per kWh,
	// any currency) and carbon intensity (gCO₂ per kWh) over time: the
	// summary's energy_cost and carbon_kg, the timeseries' price_per_kwh
	// and carbon_g_per_kwh.
	Price, Carbon *sim.StepSeries

	// Epoch, when not the zero time.Time, is the calendar instant the
	// run's time 0 stands for (an SWF header's UnixStartTime); it is kept
	// to the microsecond. The jobs table then gains submit_time,
	// start_time and end_time, the timeseries table time: UTC timestamps
	// beside the second counts (calendar.go). TimeZone is the trace's IANA
	// time zone ("Europe/Stockholm"), recorded beside the epoch in the
	// files' metadata for tools that show local time; it is ignored
	// without an Epoch.
	Epoch    time.Time
	TimeZone string

	// Measured, when not nil, says which jobs the summary's per-job
	// statistics count: a what-if's warm-up and cool-down leave out the
	// jobs submitted while the system fills and drains. The jobs table
	// then gains a measured column and the summary jobs_measured
	// (measured.go). It is asked on the engine's goroutine, of a job the
	// engine has submitted; its answer must not change.
	Measured func(*sim.JobRun) bool

	// ExpectedJobs, when > 0, is about how many jobs the run will record
	// (a trace's record count). The jobs and timeseries tables then size
	// their first staging batch for it rather than grow it by copying. A
	// wrong guess costs memory or copies, never output.
	ExpectedJobs int

	// CalibrationOff says the run is not comparable with the schedule its
	// trace recorded (its transforms moved submit times or runtimes): the
	// summary's calib_* statistics are null and calib_jobs 0 (calib.go).
	CalibrationOff bool
	// CalibResolution > 0 is the time resolution the trace recorded its
	// waits at: simulated and recorded waits are rounded to the nearest
	// multiple of it before calib_wait_ks and the wait ratios compare
	// them (a log of whole minutes cannot tell a 10 s wait from 0).
	CalibResolution sim.Time
	// CalibFrom and CalibUntil, when not zero, keep the calib_* columns
	// to the jobs submitted in [CalibFrom, CalibUntil) (a held-out part
	// of the history); MinCalibrationShare then counts those jobs.
	CalibFrom, CalibUntil sim.Time
}

// Label is one constant summary column.
type Label struct {
	Name  string // column name; must already be snake_case
	Value string
}

// FinalInfo is what only the caller knows when the run ends.
type FinalInfo struct {
	// Skipped counts trace records a lenient reader dropped.
	Skipped int64
	// Events counts the engine events applied; 0 means use the count the
	// engine reported to Finished.
	Events int64
	// WallSeconds is the run's wall-clock duration. It is the one
	// nondeterministic input, and only feeds wall_s, events_per_s and
	// jobs_per_s.
	WallSeconds float64
}

func (o *Options) normalize() error {
	switch o.Format {
	case "":
		o.Format = FormatParquet
	case FormatParquet, FormatArrow, FormatCSV:
	default:
		return fmt.Errorf("metrics: unknown format %q (want parquet, arrow or csv)", o.Format)
	}
	switch {
	case o.Tau < 0:
		return fmt.Errorf("metrics: negative tau %s s", o.Tau)
	case o.Tau == 0:
		o.Tau = DefaultTau
	}
	switch o.Tenants {
	case "":
		o.Tenants = TenantsByUser
	case TenantsByUser, TenantsByGroup, TenantsByQueue:
	default:
		return fmt.Errorf("metrics: unknown tenants %q (want user, group or queue)", o.Tenants)
	}
	if o.ExpectedJobs < 0 {
		return fmt.Errorf("metrics: negative expected jobs %d", o.ExpectedJobs)
	}
	if o.TenantBuckets < 0 {
		return fmt.Errorf("metrics: negative tenant buckets %d", o.TenantBuckets)
	}
	var sum float64
	for n, v := range o.Shares {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("metrics: share of tenant %q must be a finite number ≥ 0, got %s", n, sim.FormatNumber(v))
		}
		sum += v
	}
	if len(o.Shares) > 0 && sum <= 0 {
		return fmt.Errorf("metrics: tenant shares sum to 0")
	}
	o.Shares = maps.Clone(o.Shares)
	o.Labels = slices.Clone(o.Labels) // the caller may reuse its slice
	seen := map[string]bool{}
	for _, l := range o.Labels {
		if l.Name == "" || snake(l.Name) != l.Name {
			return fmt.Errorf("metrics: label name %q is not snake_case", l.Name)
		}
		if seen[l.Name] {
			return fmt.Errorf("metrics: label %q given twice", l.Name)
		}
		seen[l.Name] = true
	}
	return nil
}
