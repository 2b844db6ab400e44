package metrics

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/traces"
)

// A summary row longer than traces.MaxRecord is an error, not a read of
// the whole.
func TestLongSummaryRowIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.csv")
	if err := os.WriteFile(path, []byte("a,b\n1,"+strings.Repeat("x", traces.MaxRecord+1)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSummaryCSV(path); !errors.Is(err, traces.ErrRecordTooLong) {
		t.Errorf("err = %v", err)
	}
}
