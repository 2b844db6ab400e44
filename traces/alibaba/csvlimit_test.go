package alibaba

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A row longer than traces.MaxRecord is an error, not a read of the whole.
func TestLongRowIsAnError(t *testing.T) {
	tb := traces.NewCSVTable(strings.NewReader("a,"+strings.Repeat("x", traces.MaxRecord+1)+"\n"), "big.csv", 2)
	_, _, err := tb.Next(false, &traces.Skips{})
	if !errors.Is(err, traces.ErrRecordTooLong) || !strings.HasPrefix(err.Error(), "big.csv: ") {
		t.Errorf("err = %v", err)
	}
}
