package conservative

import (
	"testing"
	"unsafe"
)

// TestFreedRecordSize keeps a freed record to one cache line: every queued
// job reads every record logged since its last visit (freed).
func TestFreedRecordSize(t *testing.T) {
	if size := unsafe.Sizeof(freed{}); size > 64 {
		t.Fatalf("a freed record takes %d bytes, more than a cache line (64)", size)
	}
}
