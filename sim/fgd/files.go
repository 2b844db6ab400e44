package fgd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/gpu"
)

// WriteFiles writes the experiment's results into dir, each file
// atomically: openb_alloc.csv (allocation and fragmentation against the
// arrived GPU, per policy, seed and step) and openb_summary.csv (rows).
func WriteFiles(dir string, rs []*gpu.Result, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var curve, summary bytes.Buffer
	writeCurve(&curve, rs)
	writeSummaryCSV(&summary, rows)
	for _, f := range []struct {
		name string
		data []byte
	}{{"openb_alloc.csv", curve.Bytes()}, {"openb_summary.csv", summary.Bytes()}} {
		err := metrics.WriteFileAtomic(filepath.Join(dir, f.name), func(w io.Writer) error {
			_, err := w.Write(f.data)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// writeOpenbCurve writes one row per result and step.
func writeCurve(w io.Writer, rs []*gpu.Result) {
	fmt.Fprintln(w, "policy,seed,arrived_pct,pods_arrived,pods_placed,arrived_gpu,allocated_gpu,gpu_alloc_pct,frag_gpu,frag_pct_of_free")
	for _, r := range rs {
		for _, p := range r.Points {
			fmt.Fprintf(w, "%s,%d,%s,%d,%d,%.3f,%.3f,%.4f,%.4f,%.4f\n", r.Policy, r.Seed, strconv.FormatFloat(p.ArrivedPct, 'f', -1, 64),
				p.Pods, p.Placed, float64(p.ArrivedGPU)/gpu.MilliPerGPU, float64(p.AllocGPU)/gpu.MilliPerGPU,
				100*r.Alloc(p), p.FragGPU, 100*p.FragRatio)
		}
	}
}

func writeSummaryCSV(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "policy,runs,alloc_pct_at_100,alloc_sd_at_100,alloc_pct_at_end,alloc_sd_at_end,frag_pct_of_free_at_end")
	for _, r := range rows {
		fmt.Fprintf(w, "%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", r.Policy, r.Runs, r.At100, r.SD100, r.AtEnd, r.SDEnd, r.FragEnd)
	}
}
