package native

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A row longer than traces.MaxRecord is an error, not a read of the whole,
// in lenient mode too.
func TestLongCSVRowIsAnError(t *testing.T) {
	r := NewCSVReader(strings.NewReader("id,submit_s,runtime_s\nj1,0,"+strings.Repeat("x", traces.MaxRecord+1)+"\n"), "big.csv", traces.Options{})
	if _, err := r.Next(); !errors.Is(err, traces.ErrRecordTooLong) {
		t.Errorf("err = %v", err)
	}
}
