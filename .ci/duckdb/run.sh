#!/usr/bin/env bash
# Independent reader check of schedsim's Parquet outputs with DuckDB (npm
# @duckdb/node-api, pinned in package-lock.json): replay the embedded trace
# with EASY and conservative backfilling into a temporary directory, then read
# every table back with DuckDB and check it against summary.csv, run.yaml and
# the embedded log's SWF header (calendar time: the timestamp columns are
# epoch + seconds, the epoch is the header's UnixStartTime; see check.mjs).
# Needs go, node ≥ 20 and npm; reads no standard input.
#
#   bash .ci/duckdb/run.sh      (from anywhere)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"

for tool in go node npm; do
	command -v "$tool" >/dev/null || { echo ".ci/duckdb: $tool not found on PATH" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedsim-duckdb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo ".ci/duckdb: npm ci (node $(node --version), npm $(npm --version 2>/dev/null))"
npm ci --no-audit --no-fund --loglevel=error </dev/null >"$tmp/npm.log" 2>&1 || {
	cat "$tmp/npm.log" >&2
	echo ".ci/duckdb: npm ci failed" >&2
	exit 1
}

cd "$root"
echo ".ci/duckdb: go build ./cmd/schedsim"
go build -o "$tmp/schedsim" ./cmd/schedsim </dev/null
echo ".ci/duckdb: replay (embedded trace) --backfill easy -> \$tmp/easy"
"$tmp/schedsim" replay --quiet --out "$tmp/easy" </dev/null
echo ".ci/duckdb: replay (embedded trace) --backfill conservative -> \$tmp/cons"
"$tmp/schedsim" replay --quiet --backfill conservative --out "$tmp/cons" </dev/null

cd "$here"
node check.mjs --swf "$root/traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz" "$tmp/easy" "$tmp/cons" </dev/null
