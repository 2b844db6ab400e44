#!/usr/bin/env bash
# The report in a browser: replay testdata/report/kth-head.swf twice (no
# backfill as CSV, EASY as Parquet), render `schedsim report` of both runs and
# the small sweep of testdata/sweeps, open index.html in headless Chromium
# and fail if an image does not load or the page logs an error (check.mjs,
# DevTools protocol over a pipe, no npm package). A full-page screenshot goes
# to $SCHEDSIM_CI_ARTIFACTS/report.png when that is set. Then the check must
# fail on a page with a broken image and a console error. Installs Debian's
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
		{ apt-get update -q </dev/null >/dev/null && apt-get install -y -q -o DPkg::Lock::Timeout=300 chromium </dev/null >/dev/null; }
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
"$tmp/schedsim" report --quiet "$tmp/runs/none" "$tmp/runs/easy" testdata/sweeps/weights --out "$tmp/report" </dev/null
figures=$(find "$tmp/report" -name '*.png' | wc -l)
echo ".ci/report: $figures figures rendered"
node "$here/check.mjs" "$tmp/report/index.html" "$shots/report.png" --expect-images "$figures" </dev/null

# The check can fail: one broken image, one console error.
cat >"$tmp/broken.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
<img src="data:image/png;base64,AAAA" alt="not a png">
<script>console.error("deliberate error");</script>
</body></html>
HTML
if node "$here/check.mjs" "$tmp/broken.html" "$tmp/broken.png" </dev/null >"$tmp/broken.log" 2>&1; then
	cat "$tmp/broken.log"; echo ".ci/report: check.mjs passed a page with a broken image" >&2; exit 1
fi
for want in "image failed to load: not a png" "console.error: deliberate error"; do
	grep -qF "$want" "$tmp/broken.log" || { cat "$tmp/broken.log"; echo ".ci/report: check.mjs missed: $want" >&2; exit 1; }
done
echo ".ci/report: check.mjs fails a broken page, as it should"
