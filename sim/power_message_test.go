package sim

import (
	"strings"
	"testing"
)

// TestPowerModelMessagesPrintValuesAsWritten: a power model's errors give
// the watts as a user writes them (FormatNumber), not Go's %g exponent.
func TestPowerModelMessagesPrintValuesAsWritten(t *testing.T) {
	err := PowerModel{IdleW: 2e9, MaxW: 1e9}.validate()
	if err == nil || !strings.Contains(err.Error(), "got 2000000000 and 1000000000") {
		t.Errorf("got %v, want the watts 2000000000 and 1000000000", err)
	}
	err = PowerModel{IdleW: 100, MaxW: 250, OffW: -2.5e7}.validate()
	if err == nil || !strings.Contains(err.Error(), "got -25000000") {
		t.Errorf("got %v, want off_w -25000000", err)
	}
}
