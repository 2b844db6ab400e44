package azure

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A row longer than traces.MaxRecord is an error, not a read of the whole,
// in lenient mode too.
func TestLongRowIsAnError(t *testing.T) {
	r := NewReader(strings.NewReader("vm1,"+strings.Repeat("x", traces.MaxRecord+1)+"\n"), "big.csv", Options{})
	if _, err := r.Next(); !errors.Is(err, traces.ErrRecordTooLong) {
		t.Errorf("err = %v", err)
	}
}
