package run

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/schedsim/schedsim/sim"
)

// IsTerminal says whether f is a terminal (progress bars only there).
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// progress is an observer that moves a progress bar as jobs arrive. It
// touches the bar every 1024 jobs only, so it costs nothing measurable.
type progress struct {
	bar  *progressbar.ProgressBar
	seen int64
}

func newProgress(total int, w io.Writer) *progress {
	max := int64(total)
	if max <= 0 {
		max = -1 // unknown: a spinner
	}
	bar := progressbar.NewOptions64(max,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("replaying"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("jobs"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return &progress{bar: bar}
}

func (p *progress) Submitted(now sim.Time, j *sim.JobRun) {
	p.seen++
	if p.seen%1024 == 0 {
		p.bar.Set64(p.seen)
	}
}
func (p *progress) Started(sim.Time, *sim.JobRun)   {}
func (p *progress) Ended(sim.Time, *sim.JobRun)     {}
func (p *progress) Rejected(sim.Time, *sim.JobRun)  {}
func (p *progress) Stepped(sim.Time, *sim.Context)  {}
func (p *progress) Finished(sim.Time, *sim.Context) {}

// finish clears the bar; safe on a nil progress.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.bar.Set64(p.seen)
	p.bar.Finish()
}
