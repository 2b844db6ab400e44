package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim/run"
)

// Ids and names with terminal escape sequences reached the terminal raw:
// a dependency's id in the rejection report, a file name in an error.
// They are printed escaped (\x1b), and exit codes are unchanged.
func TestControlCharactersEscaped(t *testing.T) {
	bin := buildSchedsim(t)
	dir := t.TempDir()
	trace := filepath.Join(dir, "esc.jsonl")
	os.WriteFile(trace, []byte(`{"id":"a","submit_s":0,"runtime_s":1,"depends_on":["zz\u001b[2Jboom"]}`+"\n"), 0o644)
	cluster := filepath.Join("..", "..", "testdata", "clusters", "small.yaml")
	schedsim := func(want int, args ...string) string {
		b, err := exec.Command(bin, args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, want, b)
		}
		if strings.ContainsAny(string(b), "\x1b\x07\r") {
			t.Errorf("%v: a control character reached the terminal: %q", args, b)
		}
		return string(b)
	}
	out := schedsim(0, "replay", trace, "--cluster", cluster, "--out", filepath.Join(dir, "r"))
	if !strings.Contains(out, `dependency zz\x1b[2Jboom is not in the trace`) {
		t.Errorf("rejection report:\n%s", out)
	}
	file := filepath.Join(dir, "f\x1b]0;title\x07")
	os.WriteFile(file, nil, 0o644)
	out = schedsim(2, "replay", trace, "--cluster", cluster, "--out", file)
	if !strings.Contains(out, `f\x1b]0;title\x07: a file, not a directory`) {
		t.Errorf("error:\n%s", out)
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain ünïcode\tand\nlines": "plain ünïcode\tand\nlines",
		"\x1b[31mred\r\x7f":         `\x1b[31mred\r\x7f`,
		"\u202eevil\u0085":          `\u202eevil\x85`,
		"bad\xffutf8":               `bad\xffutf8`,
	} {
		if got := run.Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
