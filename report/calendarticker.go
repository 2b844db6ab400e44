package report

import (
	"time"

	"gonum.org/v1/plot"
)

// CalendarTicker labels an axis of Unix seconds at round calendar times
// of loc (nil: UTC), as the report's time axes do, for figures drawn
// outside the report (schedsim availability's).
func CalendarTicker(loc *time.Location) plot.Ticker { return calendarTicks{loc: loc} }
