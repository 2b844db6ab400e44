package tracetest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of the readers' tests: rewrite the golden
// files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Updating says whether the tests run with -update.
func Updating() bool { return *update }

// Golden compares got with the file at path, or writes it there when the
// tests run with -update.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Fatalf("%s differs at line %d:\nwant %q\ngot  %q\n(run with -update if the change is intended)", path, i+1, w, g)
		}
	}
}
