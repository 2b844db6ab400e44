package nodeevents

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A row longer than traces.MaxRecord is an error, not a read of the whole.
func TestLongRowIsAnError(t *testing.T) {
	_, err := Parse([]byte("time_s,node,event\n0,"+strings.Repeat("x", traces.MaxRecord+1)+",fail\n"), "big.csv")
	if !errors.Is(err, traces.ErrRecordTooLong) || !strings.HasPrefix(err.Error(), "big.csv: ") {
		t.Errorf("err = %v", err)
	}
}

// Times past what the clock holds are errors naming line and field.
func TestTimesOutOfRange(t *testing.T) {
	for in, want := range map[string]string{
		"time_s,node,event\n1e13,n1,fail\n":                        `big.csv:2: field time_s: want seconds ≥ 0, got "1e13"`,
		"time_s,node,event,deadline_s\n0,n1,drain,NaN\n":           `big.csv:2: field deadline_s: want seconds ≥ time_s, got "NaN"`,
		"time_s,node,event,deadline_s\n0,n1,drain,9000000000001\n": `big.csv:2: field deadline_s`,
	} {
		if _, err := Parse([]byte(in), "big.csv"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
