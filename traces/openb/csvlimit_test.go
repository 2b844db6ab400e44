package openb

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A row longer than traces.MaxRecord is an error, not a read of the whole.
func TestLongRowIsAnError(t *testing.T) {
	tb, err := newTable("big.csv", strings.NewReader("name,x\nn1,"+strings.Repeat("x", traces.MaxRecord+1)+"\n"), []string{"name"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.next(); !errors.Is(err, traces.ErrRecordTooLong) || !strings.HasPrefix(err.Error(), "big.csv") {
		t.Errorf("err = %v", err)
	}
}
