package metrics

import (
	"time"

	"github.com/apache/arrow/go/v17/arrow"

	"github.com/schedsim/schedsim/sim"
)

// Calendar time. A trace that says when its time 0 was (an SWF header's
// UnixStartTime, sacct's calendar dates) gives Options.Epoch; the jobs and
// timeseries tables then carry UTC timestamps beside their second counts,
// and the jobs, timeseries and summary files record the epoch and the
// trace's time zone in their metadata. Without an epoch none of this is
// written, so such runs give the same bytes as before calendar time.

// Keys of the file metadata (Parquet key-value metadata, Arrow schema
// metadata) that record calendar time.
const (
	MetaEpoch    = "schedsim.epoch"     // RFC 3339 UTC instant of time 0
	MetaTimeZone = "schedsim.time_zone" // the trace's IANA zone, e.g. Europe/Stockholm
)

// timestampType is the type of every timestamp column: microseconds, the
// engine's unit, since the Unix epoch, in UTC (Parquet's
// isAdjustedToUTC), so readers show instants, not local wall times.
var timestampType = arrow.FixedWidthTypes.Timestamp_us

// calendar maps the run's clock to Unix microseconds; the zero value
// means the epoch is unknown.
type calendar struct {
	known bool
	epoch int64 // Unix microseconds of time 0
	meta  arrow.Metadata
}

func newCalendar(epoch time.Time, zone string) calendar {
	if epoch.IsZero() {
		return calendar{}
	}
	us := epoch.UnixMicro() // the engine's resolution
	keys, vals := []string{MetaEpoch}, []string{time.UnixMicro(us).UTC().Format(time.RFC3339Nano)}
	if zone != "" {
		keys, vals = append(keys, MetaTimeZone), append(vals, zone)
	}
	return calendar{known: true, epoch: us, meta: arrow.NewMetadata(keys, vals)}
}

// at is t as Unix microseconds.
func (c calendar) at(t sim.Time) int64 { return c.epoch + int64(t/sim.Microsecond) }

// schema is fields with the calendar's metadata when the epoch is known.
func (c calendar) schema(fields []arrow.Field) *arrow.Schema {
	if !c.known {
		return arrow.NewSchema(fields, nil)
	}
	return arrow.NewSchema(fields, &c.meta)
}
