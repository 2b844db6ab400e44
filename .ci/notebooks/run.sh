#!/usr/bin/env bash
# Executes every notebook of notebooks/ with Debian's jupyter-nbconvert
# against two small CSV runs of testdata/report/kth-head.swf (no backfill as
# the base, EASY as the candidate), the small sweep of testdata/sweeps and
# the walkthrough's three sweeps of testdata/walkthrough (calibration and the
# +20 % nodes projection: 16 runs of 3,005 jobs, a few seconds), after
# checking that every stored notebook has no outputs; with
# SCHEDSIM_FAIL=1, ci_regression.ipynb's last cell must fail (EASY lowers
# jain_bsld past its tolerance) and nothing else may. Then checks that
# compare (--format csv), report (effects.csv) and capacity_whatif.ipynb
# give the same effect of the nodes on the p95 wait, with the same
# interval. Installs jupyter-nbconvert, python3-pandas, python3-matplotlib,
# python3-ipykernel and python3-scipy when missing. `python3` on PATH
# may not be Debian's, so everything runs through /usr/bin. Reads no
# standard input. Executed notebooks go to $SCHEDSIM_CI_ARTIFACTS/notebooks
# when that is set.
#
#   bash .ci/notebooks/run.sh      (from anywhere)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
nbconvert=/usr/bin/jupyter-nbconvert

need=()
[ -x "$nbconvert" ] || need+=(jupyter-nbconvert)
for mod in pandas:python3-pandas matplotlib:python3-matplotlib ipykernel:python3-ipykernel scipy:python3-scipy; do
	"$py" -c "import ${mod%%:*}" 2>/dev/null || need+=("${mod#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	echo ".ci/notebooks: installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q -o DPkg::Lock::Timeout=300 "${need[@]}" </dev/null >/dev/null ||
		{ apt-get update -q </dev/null >/dev/null && apt-get install -y -q -o DPkg::Lock::Timeout=300 "${need[@]}" </dev/null >/dev/null; } ||
		{ echo ".ci/notebooks: apt-get could not install ${need[*]}" >&2; exit 1; }
fi

cd "$root"
"$py" - notebooks/*.ipynb <<'PY'
import json, sys
bad = [f"{path}: cell {i}" for path in sys.argv[1:]
       for i, c in enumerate(json.load(open(path))["cells"])
       if c.get("outputs") or c.get("execution_count") is not None]
if bad:
    sys.exit(".ci/notebooks: stored with outputs (clear them):\n  " + "\n  ".join(bad))
print(f".ci/notebooks: {len(sys.argv) - 1} notebooks stored without outputs")
PY

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedsim-notebooks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=${SCHEDSIM_CI_ARTIFACTS:-$tmp}/notebooks
mkdir -p "$out"
go build -o "$tmp/schedsim" ./cmd/schedsim </dev/null
trace=testdata/report/kth-head.swf
"$tmp/schedsim" replay --quiet --trace "$trace" --backfill none --format csv --out "$tmp/runs/base" </dev/null
"$tmp/schedsim" replay --quiet --trace "$trace" --backfill easy --format csv --out "$tmp/runs/candidate" </dev/null

# Outside $tmp/runs, which capacity_planning.ipynb reads whole.
for e in calibrate today-1.3x plus20-1.3x; do
	"$tmp/schedsim" sweep "testdata/walkthrough/$e.yaml" --out "$tmp/walkthrough/$e" </dev/null >/dev/null
done

export SCHEDSIM_RUNS="$tmp/runs" SCHEDSIM_SWEEP="$root/testdata/sweeps/weights"
export SCHEDSIM_CALIBRATION="$tmp/walkthrough/calibrate" SCHEDSIM_TODAY="$tmp/walkthrough/today-1.3x" \
	SCHEDSIM_PROJECTION="$tmp/walkthrough/plus20-1.3x"
export SCHEDSIM_BASE="$tmp/runs/base" SCHEDSIM_CANDIDATE="$tmp/runs/candidate"
export PYTHONDONTWRITEBYTECODE=1 PYDEVD_DISABLE_FILE_VALIDATION=1
# One nbconvert for all notebooks (its start-up is seconds). --allow-errors
# keeps going past a failing cell; the check below then accepts exactly one
# error: the gate of ci_regression.ipynb, which SCHEDSIM_FAIL=1 arms and the
# base/candidate pair trips (EASY lowers jain_bsld past its tolerance).
if ! SCHEDSIM_FAIL=1 "$nbconvert" --to notebook --execute --allow-errors --ExecutePreprocessor.timeout=300 \
	--output-dir "$out" notebooks/*.ipynb </dev/null >"$tmp/nb.log" 2>&1; then
	tail -40 "$tmp/nb.log"; echo ".ci/notebooks: jupyter-nbconvert failed" >&2; exit 1
fi
"$py" - "$out" notebooks/*.ipynb <<'PY'
import json, os, re, sys
out, names = sys.argv[1], [os.path.basename(p) for p in sys.argv[2:]]
failed = False
for name in names:
    cells = json.load(open(os.path.join(out, name)))["cells"]
    errors = [(i, o) for i, c in enumerate(cells) for o in c.get("outputs", []) if o.get("output_type") == "error"]
    gate = name == "ci_regression.ipynb"
    expected = gate and len(errors) == 1 and errors[0][0] == len(cells) - 1 and \
        errors[0][1]["ename"] == "AssertionError" and "regressed past their tolerance" in errors[0][1]["evalue"]
    if errors and not expected:
        failed = True
        i, o = errors[0]  # the first error; later cells fail because of it
        trace = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(o.get("traceback", [])))
        print(f".ci/notebooks: {name} cell {i}: {o['ename']}: {o['evalue']} ({len(errors)} failing cells)\n{trace[-3000:]}")
    elif gate and not expected:
        failed = True
        print(f".ci/notebooks: {name}: SCHEDSIM_FAIL=1 did not fail on the jain_bsld regression")
    else:
        print(f".ci/notebooks: {name} ok" + (" (its gate fails on the regression, as it should)" if gate else ""))
sys.exit(1 if failed else 0)
PY

# One definition of an effect: compare, report and the notebook print the
# same relative change of the p95 wait and the same interval for the two
# projection sweeps.
"$tmp/schedsim" compare "$tmp/walkthrough/today-1.3x" "$tmp/walkthrough/plus20-1.3x" --metrics p95_wait_s \
	--format csv >"$tmp/effect.csv" </dev/null || true
"$tmp/schedsim" report "$tmp/walkthrough/today-1.3x" "$tmp/walkthrough/plus20-1.3x" --out "$tmp/effect-report" </dev/null >/dev/null
"$py" - "$tmp/effect.csv" "$tmp/effect-report/effects.csv" "$out/capacity_whatif.ipynb" <<'PY'
import csv, json, re, sys
def p95(path):
    rows = [r for r in csv.DictReader(open(path)) if r["metric"] == "p95_wait_s"]
    assert len(rows) == 1, f"{path}: {len(rows)} p95_wait_s rows"
    r = rows[0]
    return tuple(round(float(r[k]), 2) for k in ("rel_pct", "ci_lo_pct", "ci_hi_pct")) + (r["interval"],)
compare, report = p95(sys.argv[1]), p95(sys.argv[2])
text = "".join("".join(o.get("text", "")) for c in json.load(open(sys.argv[3]))["cells"] for o in c.get("outputs", []))
m = re.search(r"effect of the nodes on p95_wait_s: ([+-][0-9.]+) % \((paired t|Welch t) interval ([+-][0-9.]+) % to ([+-][0-9.]+) %", text)
assert m, "capacity_whatif.ipynb printed no effect line"
notebook = (float(m.group(1)), float(m.group(3)), float(m.group(4)), m.group(2))
if not (compare == report == notebook):
    sys.exit(f".ci/notebooks: the effect differs: compare {compare}, report {report}, notebook {notebook}")
print(f".ci/notebooks: compare, report and the notebook agree on the effect: {compare}")
PY
