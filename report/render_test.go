package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// TestRenderPanicIsError checks that a plot gonum cannot draw (a log axis
// reaching below zero panics inside gonum) gives an error, not a crash.
func TestRenderPanicIsError(t *testing.T) {
	p := plot.New()
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{}
	p.Y.Min, p.Y.Max = -1, 10
	_, err := Figure{Name: "bad", Plot: p}.render("svg")
	if err == nil || !strings.Contains(err.Error(), "drawing") {
		t.Fatalf("got %v, want a drawing error", err)
	}
}
