#!/usr/bin/env python3
"""Regenerate testdata/sweeps/weights/summary.csv: a hand-made sweep directory
in the format of `schedsim sweep` (README, "Sweeps"), until that command
writes one. It replays testdata/report/kth-head.swf under the Lattice queue
for every backfill × w_fair_share × w_wait_time × seed, with the tenants of
testdata/lattice/kth-tenants.yaml, and joins the run summaries.

    go build -o /tmp/schedsim ./cmd/schedsim
    python3 testdata/sweeps/make_weights.py /tmp/schedsim

The run directories go to a temporary directory and are not kept: the
report and the notebooks read the sweep's summary.csv.
"""
import csv, itertools, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
schedsim = os.path.abspath(sys.argv[1])
trace = os.path.join(root, "testdata", "report", "kth-head.swf")
out = os.path.join(here, "weights")
machine = {"wall_s", "events_per_s", "jobs_per_s"}

backfills = ["easy", "none"]
fair = [0.1, 0.5, 1]
wait = [0.1, 0.5, 1]
seeds = [1, 2]

def num(x):
    return repr(float(x)).removesuffix(".0")

rows = []
with tempfile.TemporaryDirectory() as tmp:
    for bf, f, w, seed in itertools.product(backfills, fair, wait, seeds):
        key = f"kth-head__{bf}__w_fair_share={num(f)}__w_wait_time={num(w)}__seed={seed}"
        cfg = os.path.join(tmp, key + ".yaml")
        with open(cfg, "w") as fh:
            fh.write(f"""queue: lattice
backfill: {bf}
profile: sweep
lattice:
  tenants: user
  tenant_buckets: 4
  shares: {{t0: 0.10, t1: 0.20, t2: 0.30, t3: 0.40}}
  half_life_s: 604800
  usage: cpu
  profiles: {key}.profiles.yaml
""")
        with open(os.path.join(tmp, key + ".profiles.yaml"), "w") as fh:
            fh.write(f"profiles:\n  sweep: {{weights: {{fair_share: {num(f)}, wait_time: {num(w)}}}}}\n")
        run = os.path.join(tmp, "runs", key)
        subprocess.run([schedsim, "replay", "--quiet", "--trace", trace, "--config", cfg,
                        "--seed", str(seed), "--format", "csv", "--out", run], check=True)
        with open(os.path.join(run, "summary.csv")) as fh:
            summary = next(csv.DictReader(fh))
        row = {"run": key, "run_dir": "runs/" + key, "param_backfill": bf,
               "param_w_fair_share": num(f), "param_w_wait_time": num(w), "seed": str(seed)}
        row.update((k, v) for k, v in summary.items() if k not in machine)
        rows.append(row)

rows.sort(key=lambda r: r["run"])
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "summary.csv"), "w", newline="") as fh:
    wr = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
    wr.writeheader()
    wr.writerows(rows)
with open(os.path.join(out, "experiment.yaml"), "w") as fh:
    fh.write(f"""# Hand-made by testdata/sweeps/make_weights.py (not by schedsim sweep).
name: weights
traces: [{{path: ../../report/kth-head.swf}}]
policies: {{queue: [lattice], backfill: [{", ".join(backfills)}]}}
parameters: {{w_fair_share: {fair}, w_wait_time: {wait}}}
seeds: {len(seeds)}
""")
print(f"wrote {len(rows)} rows to {out}/summary.csv")
