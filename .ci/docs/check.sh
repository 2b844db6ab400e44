#!/usr/bin/env bash
# Checks the documentation: the README stays under 250 lines, and every
# relative link of every tracked Markdown file (and every #anchor, in the
# same file or another) resolves. Also refuses links that leave the
# repository (../shared and the like): the repository must stand alone.
# External links (http, https, mailto) are not fetched.
#
#   bash .ci/docs/check.sh      (from anywhere; needs python3 and git)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

lines=$(wc -l < README.md)
if [ "$lines" -ge 250 ]; then
	echo ".ci/docs: README.md has $lines lines; keep it under 250 (move detail into docs/)" >&2
	exit 1
fi

git ls-files -z '*.md' | python3 "$root/.ci/docs/links.py" "$root"
echo ".ci/docs: README.md $lines lines; links ok"
