// Package calendar reads a site's calendar file: its run-time limits by
// the time of day and week, and its synchronization points, in phases
// that change on given dates. It compiles the file, for one trace's
// calendar time (its epoch) into a sim.Calendar, which the engine uses
// to hold back the jobs a window does not admit (sim/calendar.go).
//
// The format, with the calendar of the KTH IBM SP2 as its example:
//
//	time_zone: UTC                 # the zone of the hours below
//	phases:
//	  - sync: true                 # no job runs across a window's start
//	    windows:                   # each lasts until the next one starts
//	      - {days: mon-fri, start: "07:00", max_walltime_s: 14400}
//	      - {days: mon-thu, start: "16:00", max_walltime_s: 54000}
//	      - {days: fri, start: "16:00", max_walltime_s: 216000}
//	  - from: 1997-06-06           # the rules from this local date on
//	    windows: ...
//
// A phase without windows admits every job. A window's max_walltime_s
// of 0 sets no limit. The first phase holds from the start of time; each
// later one from its from, a date or a date and time ("1997-06-06 12:00")
// in the calendar's zone. A phase's synchronization points bind the jobs
// started before it begins too: none runs across its first window start.
package calendar
