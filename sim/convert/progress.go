package convert

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// convertBar is the progress bar of a conversion: one pass or two, shown
// only on a terminal.
type convertBar struct {
	bar    *progressbar.ProgressBar
	total  int
	passes int
	seen   int64
	out    io.Writer
}

func newConvertBar(records int, enc string, out io.Writer) *convertBar {
	if out == nil {
		return nil
	}
	passes := 2
	if enc == "jsonl" {
		passes = 1
	}
	return &convertBar{total: records, passes: passes, out: out}
}

// pass starts the next pass over the trace.
func (b *convertBar) pass(what string) {
	if b == nil {
		return
	}
	b.finish()
	max := int64(b.total)
	if max <= 0 {
		max = -1 // unknown: a spinner
	}
	desc := what
	if b.passes > 1 {
		desc = fmt.Sprintf("%s (%d/2)", what, map[string]int{"reading": 1, "writing": 2}[what])
	}
	b.bar = progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(b.out),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("jobs"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	b.seen = 0
}

func (b *convertBar) add() {
	if b == nil {
		return
	}
	if b.seen++; b.seen%1024 == 0 {
		b.bar.Set64(b.seen)
	}
}

func (b *convertBar) finish() {
	if b == nil || b.bar == nil {
		return
	}
	b.bar.Set64(b.seen)
	b.bar.Finish()
	b.bar = nil
}
