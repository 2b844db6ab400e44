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
