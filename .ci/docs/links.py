"""Resolve every relative link of the Markdown files named on stdin (NUL-separated).

A link is [text](target) or [text]: target outside code spans and fenced code
blocks. A target is resolved against the linking file's directory and must
exist inside the repository; a #anchor must name a heading of the target file
(GitHub's slugs: lower case, punctuation dropped, spaces to hyphens, -1, -2
for repeats). Prints every broken link as file:line: target: why, and exits 1
when there is any.
"""

import os
import re
import sys
import unicodedata
from urllib.parse import unquote

INLINE = re.compile(r"(?<!\!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
CODESPAN = re.compile(r"(`+)(.+?)\1")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def slug(text):
    """GitHub's heading anchor: markup removed, lower case, only letters,
    digits, spaces, hyphens and underscores kept, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def lines_outside_code(path):
    """(line number, text) of every line outside fenced code blocks, with code spans blanked."""
    fence = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                if fence is None:
                    fence = m.group(1)[0] * len(m.group(1))
                    continue
                if m.group(1).startswith(fence):
                    fence = None
                    continue
            if fence is None:
                yield n, CODESPAN.sub(lambda s: " " * len(s.group(0)), line)


_anchors = {}


def anchors(path):
    """The anchors of a Markdown file's headings (and explicit <a name/id> tags)."""
    if path not in _anchors:
        seen, found = {}, set()
        fence = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = FENCE.match(line)
                if m:
                    if fence is None:
                        fence = m.group(1)[0] * len(m.group(1))
                    elif m.group(1).startswith(fence):
                        fence = None
                    continue
                if fence is not None:
                    continue
                for tag in re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", line):
                    found.add(tag)
                h = HEADING.match(line)
                if not h:
                    continue
                base = slug(h.group(2))
                k = seen.get(base, 0)
                seen[base] = k + 1
                found.add(base if k == 0 else f"{base}-{k}")
        _anchors[path] = found
    return _anchors[path]


def check(root, md):
    problems = []
    here = os.path.dirname(os.path.join(root, md))
    for n, line in lines_outside_code(os.path.join(root, md)):
        targets = [m.group(1) for m in INLINE.finditer(line)] + [m.group(1) for m in IMAGE.finditer(line)]
        ref = REFDEF.match(line)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            if EXTERNAL.match(target):
                continue
            path, _, anchor = target.partition("#")
            path = unquote(path)
            resolved = os.path.normpath(os.path.join(here, path)) if path else os.path.join(root, md)
            if os.path.relpath(resolved, root).startswith(".."):
                problems.append(f"{md}:{n}: {target}: points outside the repository")
                continue
            if not os.path.exists(resolved):
                problems.append(f"{md}:{n}: {target}: no such file")
                continue
            if anchor:
                if os.path.isdir(resolved) or not resolved.endswith(".md"):
                    problems.append(f"{md}:{n}: {target}: an anchor into a file that is not Markdown")
                elif unquote(anchor) not in anchors(resolved):
                    problems.append(f"{md}:{n}: {target}: no heading with anchor #{anchor} in {os.path.relpath(resolved, root)}")
    return problems


def main():
    root = sys.argv[1]
    files = [f for f in sys.stdin.read().split("\0") if f]
    problems = [p for md in sorted(files) for p in check(root, md)]
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f".ci/docs: {len(problems)} broken link(s) in {len(files)} Markdown files", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
