package native

import (
	"bytes"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// FuzzParquet feeds the Parquet reader arbitrary bytes, starting from
// valid traces of every shape. It must never panic (a corrupt file is an
// error naming it), and what it reads in strict mode must write and read
// back the same.
//
//	go test -run X -fuzz FuzzParquet ./traces/native
func FuzzParquet(f *testing.F) {
	trait := benchTraitJobs(3)
	trait[1].DependsOn = []sim.Dependency{{ID: trait[0].ID, AfterAny: true, Think: 5}}
	for _, jobs := range [][]*sim.Job{benchJobs(3), trait, depJobs()} {
		f.Add(parquetBytes(f, jobs, &Embedded{Source: "seed"}))
	}
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, _, err := readParquet(t, data, traces.Options{Strict: true})
		readParquet(t, data, traces.Options{}) // lenient: no panic either
		if err != nil {
			return
		}
		back, _, err := readParquet(t, parquetBytes(t, jobs, nil), traces.Options{Strict: true})
		if err != nil {
			t.Fatalf("what was read does not read back: %v", err)
		}
		if got, want := dumpAll(back), dumpAll(jobs); got != want {
			t.Fatalf("round trip:\n got:\n%s\nwant:\n%s", got, want)
		}
	})
}

// TestParquetOwnPanics: a panic of this package is not mistaken for a
// corrupt file.
func TestParquetOwnPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("the panic was swallowed")
		}
	}()
	var err error
	func() {
		defer recoverCorrupt("t.parquet", &err, true)
		var s []int
		_ = s[len(bytes.TrimSpace([]byte(" x ")))] // index out of range, here
	}()
	t.Errorf("no panic, err %v", err)
}
