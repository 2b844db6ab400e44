#!/usr/bin/env bash
# The report in a browser: replay testdata/report/kth-head.swf three times
# (no backfill on the SWF pool model as CSV, EASY as Parquet, conservative on
# the nodes model, 100 nodes, as Arrow IPC), render `schedsim report` of the
# three runs with the small sweep of testdata/sweeps, and of the sweep alone,
# the README tour's report (the embedded KTH-SP2 log without and with
# EASY backfilling) and the walkthrough's two projection sweeps (the answer
# to a target and the effects table first); open each index.html in headless Chromium at 1280 and
# 1920 pixels wide and fail if an image does not load, the page logs an
# error or anything overflows its column (check.mjs, DevTools protocol over a
# pipe, no npm package). Full-page screenshots at both widths go to
# $SCHEDSIM_CI_ARTIFACTS (report-1280.png, report-1920.png, report-sweep-…,
# report-tour-…) when that is set. Then the check must fail on a page with a
# broken image, a console error and an overflowing figure. Installs Debian's
# chromium when missing. Reads no standard input.
#
#   bash .ci/report/run.sh      (from anywhere)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

for tool in go node; do
	command -v "$tool" >/dev/null || { echo ".ci/report: $tool not found on PATH" >&2; exit 1; }
done
if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
	echo ".ci/report: installing Debian's chromium"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q -o DPkg::Lock::Timeout=300 chromium </dev/null >/dev/null ||
		{ apt-get update -q </dev/null >/dev/null && apt-get install -y -q -o DPkg::Lock::Timeout=300 chromium </dev/null >/dev/null; } ||
		{ echo ".ci/report: apt-get could not install chromium (set CHROMIUM to a browser binary)" >&2; exit 1; }
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedsim-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
shots=${SCHEDSIM_CI_ARTIFACTS:-$tmp}
mkdir -p "$shots"

cd "$root"
go build -o "$tmp/schedsim" ./cmd/schedsim </dev/null
trace=testdata/report/kth-head.swf
"$tmp/schedsim" replay --quiet --trace "$trace" --backfill none --format csv --out "$tmp/runs/none" </dev/null
"$tmp/schedsim" replay --quiet --trace "$trace" --backfill easy --format parquet --out "$tmp/runs/easy" </dev/null
"$tmp/schedsim" replay --quiet --trace "$trace" --backfill conservative --swf-model nodes --format arrow \
	--out "$tmp/runs/conservative" </dev/null

# report DIR SCREENSHOT INPUT…: render INPUTs into DIR and open DIR/index.html
# expecting every rendered PNG figure on the page.
report() {
	local dir=$1 shot=$2
	shift 2
	"$tmp/schedsim" report --quiet "$@" --out "$dir" </dev/null
	local figures
	figures=$(find "$dir" -name '*.png' | wc -l)
	echo ".ci/report: $(basename "$dir"): $figures figures rendered"
	node "$here/check.mjs" "$dir/index.html" "$shot" --expect-images "$figures" --widths 1280,1920 </dev/null
}
report "$tmp/report" "$shots/report.png" "$tmp/runs/none" "$tmp/runs/easy" "$tmp/runs/conservative" testdata/sweeps/weights
report "$tmp/report-sweep" "$shots/report-sweep.png" testdata/sweeps/weights
"$tmp/schedsim" replay --quiet --backfill none --out "$tmp/runs/tour-none" </dev/null
"$tmp/schedsim" replay --quiet --backfill easy --out "$tmp/runs/tour-easy" </dev/null
report "$tmp/report-tour" "$shots/report-tour.png" "$tmp/runs/tour-none" "$tmp/runs/tour-easy"
# The walkthrough's projection: two sweeps with replicas and a target, so the
# page opens with the answer and the effects table.
for e in today-1.3x plus20-1.3x; do
	"$tmp/schedsim" sweep --quiet "testdata/walkthrough/$e.yaml" --out "$tmp/sweeps/$e" </dev/null
done
report "$tmp/report-whatif" "$shots/report-whatif.png" "$tmp/sweeps/today-1.3x" "$tmp/sweeps/plus20-1.3x"

# The check can fail: one broken image, one console error, one figure wider
# than its column.
cat >"$tmp/broken.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
<img src="data:image/png;base64,AAAA" alt="not a png">
<script>console.error("deliberate error");</script>
<figure id="wide" style="width: 600px"><div style="width: 900px; height: 10px"></div></figure>
</body></html>
HTML
if node "$here/check.mjs" "$tmp/broken.html" "$tmp/broken.png" </dev/null >"$tmp/broken.log" 2>&1; then
	cat "$tmp/broken.log"; echo ".ci/report: check.mjs passed a page with a broken image" >&2; exit 1
fi
for want in "image failed to load: not a png" "console.error: deliberate error" "div sticks out of its figure#wide"; do
	grep -qF "$want" "$tmp/broken.log" || { cat "$tmp/broken.log"; echo ".ci/report: check.mjs missed: $want" >&2; exit 1; }
done
echo ".ci/report: check.mjs fails a broken page, as it should"
