package report

import (
	"math"
	"strconv"
)

// durationText writes seconds in the unit a planner reads them in, with
// three significant digits: 42 s, 12.5 min, 5.43 h, 4.10 d.
func durationText(s float64) string {
	a := math.Abs(s)
	unit, div := "s", 1.0
	switch {
	case a >= 86400:
		unit, div = "d", 86400
	case a >= 3600:
		unit, div = "h", 3600
	case a >= 60:
		unit, div = "min", 60
	}
	v := s / div
	digits := 0
	switch av := math.Abs(v); {
	case av == 0 || (div == 1 && v == math.Trunc(v)):
		digits = 0
	case av < 10:
		digits = 2
	case av < 100:
		digits = 1
	}
	return strconv.FormatFloat(v, 'f', digits, 64) + " " + unit
}
