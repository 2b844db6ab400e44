package report

import (
	"bytes"
	"encoding/base64"
	"html"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestIndexInlinesImages writes a report of the golden runs and sweep and
// checks that index.html loads nothing but inlined images: every src is a
// data: URI holding a PNG that decodes, one per figure, and the page has
// no script, stylesheet link, frame or url() to fetch.
func TestIndexInlinesImages(t *testing.T) {
	out := t.TempDir()
	in := &Inputs{Runs: goldenRuns(), Sweeps: []*Sweep{goldenSweep(t)}}
	written, err := Write(in, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if last := written[len(written)-1]; filepath.Base(last) != "index.html" {
		t.Errorf("index.html should be written last, got %s", last)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	srcs := regexp.MustCompile(`(?i)\bsrc\s*=\s*"([^"]*)"`).FindAllStringSubmatch(text, -1)
	if len(srcs) != 16 { // 11 run figures + 2 Gantt charts + 2 heatmaps + the Pareto front
		t.Errorf("got %d src attributes, want 16", len(srcs))
	}
	for _, m := range srcs {
		const prefix = "data:image/png;base64,"
		src := html.UnescapeString(m[1]) // html/template writes '+' as &#43;
		if !strings.HasPrefix(src, prefix) {
			t.Errorf("src %.60q is not an inlined PNG", src)
			continue
		}
		b, err := base64.StdEncoding.DecodeString(src[len(prefix):])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("an inlined image does not decode: %v", err)
		}
	}
	for _, bad := range []string{"<script", "<link", "<iframe", "<object", "<embed", "url(", "@import", "http://", "https://"} {
		if strings.Contains(strings.ToLower(text), bad) {
			t.Errorf("index.html contains %q", bad)
		}
	}
	// The sweep table marks the front: easy, w_age=0, w_fair=2 waits
	// 100 + 0 − 40 + 1.5 (mean seed) = 61.5 s, the least of the sweep, so
	// nothing dominates it.
	if !strings.Contains(text, `<tr class="front"><td>k__easy__w_age=0__w_fair=2__seed=1</td>`) {
		t.Error("the sweep table does not mark k__easy__w_age=0__w_fair=2 as on the front")
	}
}

// TestCumulative checks the exact integral of a step function, by hand:
// 10 W for 2 s then 30 W for 1 s.
func TestCumulative(t *testing.T) {
	xs, ys := cumulative([]float64{0, 2, 3}, []float64{10, 30, 0})
	want := []float64{0, 20, 50} // 10·2 = 20, + 30·1 = 50
	for i := range want {
		if xs[i] != float64([]int{0, 2, 3}[i]) || ys[i] != want[i] {
			t.Fatalf("got %v %v, want ys %v", xs, ys, want)
		}
	}
	// A long series keeps maxPoints exact vertices, the last the total.
	n := 3 * maxPoints
	ts, ps := make([]float64, n), make([]float64, n)
	for i := range ts {
		ts[i], ps[i] = float64(i), 2
	}
	xs, ys = cumulative(ts, ps)
	if len(xs) != maxPoints || xs[len(xs)-1] != float64(n-1) || ys[len(ys)-1] != float64(2*(n-1)) {
		t.Errorf("long: %d points, last (%v, %v), want (%d, %d)", len(xs), xs[len(xs)-1], ys[len(ys)-1], n-1, 2*(n-1))
	}
}

// TestTopTenants checks the order (usage summed over runs, ties by name)
// and the bound.
func TestTopTenants(t *testing.T) {
	r1 := &Run{Tenants: []Tenant{{Name: "b", Usage: 5}, {Name: "a", Usage: 5}, {Name: "c", Usage: 1}}}
	r2 := &Run{Tenants: []Tenant{{Name: "c", Usage: 20}}}
	names, others := topTenants([]*Run{r1, r2})
	// c: 1 + 20 = 21; a and b: 5 each, a first by name.
	if strings.Join(names, ",") != "c,a,b" || others != 0 {
		t.Errorf("got %v, %d others", names, others)
	}
	var many []Tenant
	for i := 0; i < maxTenants+3; i++ {
		many = append(many, Tenant{Name: string(rune('A' + i)), Usage: float64(i)})
	}
	names, others = topTenants([]*Run{{Tenants: many}})
	if len(names) != maxTenants || others != 3 || names[0] != string(rune('A'+maxTenants+2)) {
		t.Errorf("got %v, %d others", names, others)
	}
}

// TestIdleRunAxes: a run in which nothing ever waits keeps readable axes:
// the queue axis starts at 0 (not −1), the wait CDF's log axis starts at
// 1 s, and a tenant without a name is labelled.
func TestIdleRunAxes(t *testing.T) {
	r := &Run{Label: "idle", SummaryVals: map[string]string{}, Wait: []float64{0, 0, 0}, BSLD: []float64{1, 1, 1},
		Time: []float64{0, 3600}, Queued: []float64{0, 0}, Util: []float64{0.5, 0}, Power: []float64{100, 50},
		Tenants: []Tenant{{Name: "", MeanBSLD: 1, Usage: 10, UsageShare: 1, TargetShare: 1}}}
	figs, err := Figures([]*Run{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Figure{}
	for _, f := range figs {
		byName[f.Name] = f
	}
	q := byName["queue"].Plot
	if q.Y.Min != 0 || q.Y.Max <= 0 {
		t.Errorf("queue axis %v to %v, want from 0 up", q.Y.Min, q.Y.Max)
	}
	// No job waited a second: the log axis must still start at 1 s, not
	// be padded down to 0, and every figure must draw.
	c := byName["wait_cdf"].Plot
	if c.X.Min != 1 || c.X.Max < 10 || c.Y.Max != 1 {
		t.Errorf("wait CDF axes x %v to %v, y to %v; want x from 1 s over a decade, y to 1", c.X.Min, c.X.Max, c.Y.Max)
	}
	for _, f := range figs {
		if _, err := f.render("png"); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
	tb := byName["tenant_bsld"].Plot
	labels := tb.X.Tick.Marker.Ticks(tb.X.Min, tb.X.Max)
	if len(labels) != 1 || labels[0].Label != "(none)" {
		t.Errorf("tenant ticks %v, want one labelled (none)", labels)
	}
	if !strings.Contains(byName["tenant_bsld"].Caption, `"(none)"`) {
		t.Errorf("caption does not explain (none): %s", byName["tenant_bsld"].Caption)
	}
}
