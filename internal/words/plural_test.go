package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "node", "1 node"}, {0, "node", "0 nodes"}, {135, "job", "135 jobs"}, {1, "processor", "1 processor"},
		{240, "processor", "240 processors"}, {8, "run", "8 runs"}, {2, "process", "2 processes"},
		{3, "policy", "3 policies"}, {2, "day", "2 days"}, {11, "bad record", "11 bad records"},
		{2, "match", "2 matches"}, {-1, "job", "-1 jobs"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if got := CountAs(2, "child", "children"); got != "2 children" {
		t.Errorf("CountAs: %q", got)
	}
	if got := CountAs(1, "child", "children"); got != "1 child" {
		t.Errorf("CountAs: %q", got)
	}
}

func TestAdverb(t *testing.T) {
	for unit, want := range map[string]string{"hour": "hourly", "day": "daily", "week": "weekly", "month": "monthly",
		"minute": "minute-by-minute"} {
		if got := Adverb(unit); got != want {
			t.Errorf("Adverb(%q) = %q, want %q", unit, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for in, want := range map[string]string{"163670": "163,670", "999": "999", "1000": "1,000", "-1234.5": "-1,234.5",
		"12": "12", "0.25": "0.25", "1e+06": "1e+06", "1234567": "1,234,567"} {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%q) = %q, want %q", in, got, want)
		}
	}
}
