package calendar

import (
	"fmt"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
)

// File is a calendar file as written.
type File struct {
	// TimeZone is the IANA zone of the windows' hours and the phases'
	// dates; empty: UTC.
	TimeZone string  `yaml:"time_zone"`
	Phases   []Phase `yaml:"phases"`
}

// Phase is a set of weekly windows that holds from a date on.
type Phase struct {
	// From is when the phase begins, in the calendar's zone; the first
	// phase has none.
	From Instant `yaml:"from"`
	// Sync makes the start of every window a synchronization point: a
	// job started in a window must end, by its estimated runtime, by the
	// start of the next.
	Sync    bool         `yaml:"sync"`
	Windows []WindowSpec `yaml:"windows"`
}

// WindowSpec is a weekly window: it starts at Start on each of Days and
// lasts until the next window of its phase starts.
type WindowSpec struct {
	Days  Days  `yaml:"days"`
	Start Clock `yaml:"start"`
	// MaxWalltimeS > 0 is the longest walltime a job may start with in
	// the window; 0: no limit.
	MaxWalltimeS float64 `yaml:"max_walltime_s"`
}

// Days is a set of weekdays, written "mon-fri", "sat,sun" or "fri"; bit
// i is time.Weekday i.
type Days uint8

// Clock is a time of day, written "HH:MM" (24 h), in seconds.
type Clock struct {
	Seconds int
	Set     bool
}

// Instant is a date or a date and time ("1997-06-06", "1997-06-06
// 12:00"), read in the calendar's zone when the calendar is compiled.
type Instant struct {
	Text string
	Set  bool
}

var dayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

func dayIndex(s string) (int, bool) {
	for i, n := range dayNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return i, true
		}
	}
	return 0, false
}

// ParseDays reads "mon-fri", "sat,sun", "fri" (ranges wrap: "fri-mon").
func ParseDays(s string) (Days, error) {
	var d Days
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, ok := dayIndex(lo)
		if !ok {
			return 0, fmt.Errorf("unknown day %q (want mon, tue, wed, thu, fri, sat, sun, a range such as mon-fri, or a list such as sat,sun)", strings.TrimSpace(lo))
		}
		b := a
		if isRange {
			if b, ok = dayIndex(hi); !ok {
				return 0, fmt.Errorf("unknown day %q (want mon, tue, wed, thu, fri, sat, sun)", strings.TrimSpace(hi))
			}
		}
		for i := a; ; i = (i + 1) % 7 {
			d |= 1 << i
			if i == b {
				break
			}
		}
	}
	return d, nil
}

// Has reports whether the set holds day w.
func (d Days) Has(w time.Weekday) bool { return d&(1<<w) != 0 }

// UnmarshalStrict reads the days at their line.
func (d *Days) UnmarshalStrict(dec *strictyaml.Decoder, n *yaml.Node, path string) {
	decodeScalar(dec, n, path, "days such as mon-fri", ParseDays, d)
}

// decodeScalar reads scalar n with parse into *into, or reports at n's
// line what it wanted (want) or what parse said.
func decodeScalar[T any](dec *strictyaml.Decoder, n *yaml.Node, path, want string, parse func(string) (T, error), into *T) {
	if n.Kind != yaml.ScalarNode {
		dec.Errorf(n, path, "want %s, got %s", want, strictyaml.Describe(n))
		return
	}
	v, err := parse(n.Value)
	if err != nil {
		dec.Errorf(n, path, "%v", err)
		return
	}
	*into = v
}

// ParseClock reads "HH:MM".
func ParseClock(s string) (Clock, error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return Clock{}, fmt.Errorf("want a time of day as HH:MM (24 h), got %q", s)
	}
	return Clock{Seconds: t.Hour()*3600 + t.Minute()*60, Set: true}, nil
}

// UnmarshalStrict reads the time of day at its line.
func (c *Clock) UnmarshalStrict(dec *strictyaml.Decoder, n *yaml.Node, path string) {
	decodeScalar(dec, n, path, "a time of day as HH:MM", ParseClock, c)
}

// instantLayouts are the forms of an Instant.
var instantLayouts = []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"}

// In is the instant in loc.
func (i Instant) In(loc *time.Location) (time.Time, error) {
	for _, l := range instantLayouts {
		if t, err := time.ParseInLocation(l, strings.TrimSpace(i.Text), loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("want a date (2006-01-02) or a date and time (2006-01-02 15:04), got %q", i.Text)
}

// UnmarshalStrict reads the instant at its line; the zone comes later.
func (i *Instant) UnmarshalStrict(dec *strictyaml.Decoder, n *yaml.Node, path string) {
	decodeScalar(dec, n, path, "a date such as 1997-06-06", func(text string) (Instant, error) {
		v := Instant{Text: text, Set: true}
		_, err := v.In(time.UTC)
		return v, err
	}, i)
}

// Load reads and checks a calendar file: every problem at once, each
// with the file, line and key.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads and checks a calendar file's bytes; name names it in
// errors.
func Parse(name string, data []byte) (*File, error) {
	root, err := strictyaml.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("%s: empty calendar file (want time_zone and phases)", name)
	}
	d := strictyaml.NewDecoder(name)
	var f File
	d.Decode(root, "", &f)
	if err := d.Err(); err != nil {
		return nil, err
	}
	f.check(d, root)
	if err := d.Err(); err != nil {
		return nil, err
	}
	return &f, nil
}
