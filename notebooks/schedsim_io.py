"""Read schedsim run and sweep directories into pandas DataFrames.

Shared by the notebooks of this directory. A run directory (`schedsim replay
--out DIR`) holds jobs, timeseries, nodes, tenants and summary tables as
Parquet, Arrow IPC or CSV, plus summary.csv (always) and run.yaml; a sweep
directory (`schedsim sweep … --out DIR`) holds summary.csv with one row per run
(first column `run`) and runs/<key>/ run directories. Parquet and Arrow are
read with pyarrow, else polars, when one is installed; without either, CSV
tables are read and a run written only as Parquet is reported with the fix.

Quantiles: numpy's default (linear interpolation between closest ranks,
"type 7"), as schedsim's summary and report use, so the numbers agree.
"""

import csv
import os

import numpy as np
import pandas as pd

TABLE_EXTS = ("parquet", "arrow", "csv")
MACHINE_COLUMNS = ("wall_s", "events_per_s", "jobs_per_s")  # measure the machine, not the schedule


def _read_binary(path, ext):
    """Reads a Parquet or Arrow IPC file with pyarrow, else polars; None when neither is installed."""
    try:
        if ext == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path).to_pandas()
        import pyarrow.ipc as ipc

        with open(path, "rb") as f:
            return ipc.open_file(f).read_all().to_pandas()
    except ImportError:
        pass
    try:
        import polars as pl

        frame = pl.read_parquet(path) if ext == "parquet" else pl.read_ipc(path)
        # to_dict, not to_pandas: polars' to_pandas needs pyarrow.
        return pd.DataFrame(frame.to_dict(as_series=False))
    except ImportError:
        return None


def read_table(run_dir, name):
    """Reads table `name` (jobs, timeseries, nodes, tenants, summary) of a run directory.

    Formats are tried in the order parquet, arrow, csv, so a directory holding
    two reads the binary one when a reader is installed and the CSV otherwise.
    """
    found = []
    for ext in TABLE_EXTS:
        path = os.path.join(run_dir, f"{name}.{ext}")
        if not os.path.exists(path):
            continue
        found.append(path)
        if ext == "csv":
            return pd.read_csv(path)
        frame = _read_binary(path, ext)
        if frame is not None:
            return frame
    if found:
        raise RuntimeError(
            f"{run_dir}: {name} is only in {', '.join(os.path.basename(p) for p in found)}, and neither pyarrow "
            "nor polars is installed: install one, or replay with --format csv"
        )
    raise FileNotFoundError(f"{run_dir} is not a run directory: no {name}.parquet, {name}.arrow or {name}.csv")


def read_summary(run_dir):
    """The run's summary.csv as a Series (column → value)."""
    path = os.path.join(run_dir, "summary.csv")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{run_dir} is not a run directory: no summary.csv")
    frame = pd.read_csv(path)
    if len(frame) != 1:
        raise ValueError(f"{path}: want one row, got {len(frame)}")
    return frame.iloc[0]


def is_sweep(path):
    """A sweep directory's summary.csv starts with the column `run`; a run's has none."""
    try:
        with open(os.path.join(path, "summary.csv"), newline="") as f:
            header = next(csv.reader(f))
    except (OSError, StopIteration):
        return False
    return bool(header) and header[0] == "run"


def is_run(path):
    return os.path.exists(os.path.join(path, "summary.csv")) and not is_sweep(path)


def find_runs(root):
    """Run directories at or under root (two levels deep, skipping sweeps), sorted by path."""
    if is_run(root):
        return [root]
    found = []
    for dirpath, dirnames, _ in os.walk(root):
        depth = os.path.relpath(dirpath, root).count(os.sep)
        dirnames.sort()
        if is_sweep(dirpath) or depth >= 2:
            dirnames[:] = []
        for d in dirnames:
            if is_run(os.path.join(dirpath, d)):
                found.append(os.path.join(dirpath, d))
    return sorted(found)


def run_label(run_dir):
    """trace · queue · backfill, as the report labels a run (plus the directory name)."""
    s = read_summary(run_dir)
    parts = [str(s.get(c, "?")) for c in ("trace", "queue", "backfill")]
    return " · ".join(parts) + f" [{os.path.basename(os.path.normpath(run_dir))}]"


def trace_of(run_dir):
    """(name, sha256) of the trace a run replayed, from the provenance section of its run.yaml.

    Read line by line (no YAML library needed): the `trace:` block under `provenance:` holds `name:` and
    `sha256:`. Falls back to the summary's `trace` label and no checksum for a run.yaml without them.
    """
    name = sha = None
    path = os.path.join(run_dir, "run.yaml")
    if os.path.exists(path):
        section = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith(" "):
                    section = line.split(":", 1)[0].strip()
                    block = None
                    continue
                if section != "provenance":
                    continue
                if line.startswith("  ") and not line.startswith("   "):
                    block = line.strip().split(":", 1)[0]
                elif block == "trace" and line.startswith("    ") and not line.startswith("     "):
                    key, _, value = line.strip().partition(":")
                    value = value.strip().strip("'\"")
                    if key == "name":
                        name = value
                    elif key == "sha256":
                        sha = value
    if name is None:
        name = str(read_summary(run_dir).get("trace", "?"))
    return name, sha


def describe_runs(run_dirs):
    """One row per run directory: the trace (name and checksum prefix), queue and backfill it replayed.

    Every notebook prints this first, so a reader sees which runs a conclusion rests on.
    """
    rows = []
    for d in run_dirs:
        s = read_summary(d)
        name, sha = trace_of(d)
        rows.append({"run_dir": d, "trace": name, "sha256": (sha or "")[:12],
                     "queue": s.get("queue", ""), "backfill": s.get("backfill", ""), "jobs": s.get("jobs", "")})
    return pd.DataFrame(rows)


def same_trace(run_dirs, wanted=None):
    """Splits run directories into those that replayed one trace and the others.

    The trace is the one named `wanted` (a trace name, or a prefix of its SHA-256), else the one with the most
    runs (ties: the first in path order). Runs are of the same trace when their checksums agree (their names
    when a run.yaml has no checksum). Returns (kept, set_aside, trace name).
    """
    ids = {d: trace_of(d) for d in run_dirs}
    key = {d: (sha or name) for d, (name, sha) in ids.items()}
    if wanted:
        chosen = [d for d, (name, sha) in ids.items() if name == wanted or (sha and sha.startswith(wanted))]
        if not chosen:
            known = sorted({name for name, _ in ids.values()})
            raise SystemExit(f"no run replayed the trace {wanted!r}; the runs replayed: {', '.join(known)}")
        target = key[chosen[0]]
    else:
        counts = {}
        for d in run_dirs:
            counts[key[d]] = counts.get(key[d], 0) + 1
        target = max(counts, key=lambda k: (counts[k], -run_dirs.index(next(d for d in run_dirs if key[d] == k))))
    kept = [d for d in run_dirs if key[d] == target]
    return kept, [d for d in run_dirs if key[d] != target], ids[kept[0]][0]


def summaries(run_dirs):
    """One row per run: its summary.csv without the machine-timing columns, indexed by label."""
    rows = []
    for d in run_dirs:
        s = read_summary(d)
        s = s.drop(labels=[c for c in MACHINE_COLUMNS if c in s.index])
        s["label"] = run_label(d)
        s["run_dir"] = d
        rows.append(s)
    return pd.DataFrame(rows).set_index("label")


def read_sweep(sweep_dir):
    """The sweep's summary.csv, one row per run, with the parameter and metric columns."""
    path = os.path.join(sweep_dir, "summary.csv")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{sweep_dir} is not a sweep directory: no summary.csv")
    if not is_sweep(sweep_dir):
        raise ValueError(f"{sweep_dir} is not a sweep directory: {path} has no leading `run` column")
    return pd.read_csv(path)


def experiment_name(sweep_dir):
    """The `name:` of the sweep's experiment.yaml, or "experiment unnamed" when it has none."""
    path = os.path.join(sweep_dir, "experiment.yaml")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("name:"):
                    return "experiment " + line.split(":", 1)[1].strip().strip("'\"")
    return "experiment unnamed"


def param_columns(sweep):
    """The sweep's parameter columns (param_<name>), in file order."""
    return [c for c in sweep.columns if c.startswith("param_")]


def varying(sweep):
    """The parameter columns with more than one value."""
    return [c for c in param_columns(sweep) if sweep[c].nunique(dropna=False) > 1]


def mean_over_seeds(sweep, metrics):
    """One row per parameter combination: the metrics averaged over its seeds (nulls ignored)."""
    params = param_columns(sweep)
    if not params:
        return sweep[metrics].mean().to_frame().T
    grouped = sweep.groupby(params, dropna=False, sort=True)
    out = grouped[metrics].mean()
    out["runs"] = grouped.size()
    return out.reset_index()


def pareto_front(frame, minimize=(), maximize=()):
    """Boolean Series: rows no other row beats on one objective without losing on another.

    The same definition as `schedsim report`'s Pareto front.
    """
    values = frame[list(minimize) + list(maximize)].to_numpy(dtype=float)
    sign = np.array([1.0] * len(minimize) + [-1.0] * len(maximize))
    v = values * sign  # everything minimised
    front = []
    for i in range(len(v)):
        no_worse = np.all(v <= v[i], axis=1)
        better = np.any(v < v[i], axis=1)
        front.append(not np.any(no_worse & better))
    return pd.Series(front, index=frame.index)


def quantile(values, q):
    """numpy's default quantile (type 7), as schedsim's summary defines p95_wait_s."""
    return float(np.quantile(np.asarray(values, dtype=float), q))


def ecdf(values):
    """Sorted values and the share of values at most each one."""
    x = np.sort(np.asarray(values, dtype=float))
    return x, np.arange(1, len(x) + 1) / len(x)


def step_integral(time_s, values):
    """∫ values dt of a step function (values[i] holds on [time_s[i], time_s[i+1])), cumulated."""
    t = np.asarray(time_s, dtype=float)
    v = np.asarray(values, dtype=float)
    return np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])


def env_path(name, default):
    """A directory from environment variable `name`, else the default; relative paths are from the kernel's
    working directory, which nbconvert and Jupyter set to the notebook's."""
    return os.path.abspath(os.environ.get(name) or default)


def capacity(timeseries):
    """Online capacity of the resource that drives power: allocated ÷ utilization where both are > 0.

    The median over the rows, so a node failure (capacity drops for a while) does not decide it.
    """
    util_cols = [c for c in timeseries.columns if c.startswith("utilization_")]
    if not util_cols:
        return float("nan")
    r = util_cols[0].removeprefix("utilization_")
    u, a = timeseries[util_cols[0]], timeseries[f"allocated_{r}"]
    busy = (u > 0) & (a > 0)
    return float(np.median(a[busy] / u[busy])) if busy.any() else float("nan")


def value(v):
    """A parameter value as the report shows it: 1.0 → 1, 0.5 → 0.5, text as is."""
    return f"{v:g}" if isinstance(v, (int, float, np.number)) else str(v)


def compact(v):
    """Three significant digits without an exponent, as the report's heatmap cells: 12345 → 12345, 1.2345 → 1.23."""
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1 or a == 0:
        return f"{v:.2f}"
    return f"{v:.3g}"


def readable(run_dir, tables=("jobs", "timeseries", "nodes", "tenants")):
    """None when every table can be read here, else the reason (e.g. Parquet only and no pyarrow)."""
    for name in tables:
        exts = [e for e in TABLE_EXTS if os.path.exists(os.path.join(run_dir, f"{name}.{e}"))]
        if not exts:
            return f"no {name} table"
        if "csv" not in exts and _binary_reader() is None:
            return f"{name} is only in {name}.{exts[0]} and neither pyarrow nor polars is installed (replay with --format csv)"
    return None


def _binary_reader():
    for module in ("pyarrow", "polars"):
        try:
            __import__(module)
            return module
        except ImportError:
            pass
    return None


def effect(base, candidate, paired, confidence=0.95):
    """The relative change of a metric's mean and its interval, as `schedsim compare` computes them.

    base and candidate are one side's values each (pandas Series indexed by seed when paired, so that
    replica i of one side meets replica i of the other). The change is
    (mean(candidate) − mean(base)) / |mean(base)|; the interval is Student's t-interval of the paired
    differences when paired, else Welch's, as a share of |mean(base)|. Fewer than 3 values a side, or
    no spread, give no interval (None, None), as compare says "none". Returns (change, lo, hi, method).
    """
    from scipy import stats

    b, c = np.asarray(base, dtype=float), np.asarray(candidate, dtype=float)
    if paired:
        c = np.asarray(candidate.reindex(base.index), dtype=float)
    mb = b.mean()
    change = (c.mean() - mb) / abs(mb)
    q = 1 - (1 - confidence) / 2
    if paired:
        d = c - b
        if len(d) < 3 or d.std(ddof=1) == 0:
            return change, None, None, "none"
        half = stats.t.ppf(q, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        centre, method = d.mean(), "paired t"
    else:
        if len(b) < 3 or len(c) < 3 or (b.var(ddof=1) == 0 and c.var(ddof=1) == 0):
            return change, None, None, "none"
        sb, sc = b.var(ddof=1) / len(b), c.var(ddof=1) / len(c)
        df = (sb + sc) ** 2 / (sb**2 / (len(b) - 1) + sc**2 / (len(c) - 1))
        half = stats.t.ppf(q, df) * np.sqrt(sb + sc)
        centre, method = c.mean() - mb, "Welch t"
    return change, (centre - half) / abs(mb), (centre + half) / abs(mb), method
