"""Rewrites (or checks) one generated section of a Markdown file, between its markers."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def update(name, body, check, command, path="README.md"):
    """Puts `body` between <!-- NAME:begin --> and <!-- NAME:end --> in `path` (relative to
    the repository's root); with `check`, only says whether it is already there.  Returns
    the exit status."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    document = ROOT / path
    text = document.read_text()
    start, stop = text.index(begin) + len(begin), text.index(end)
    updated = text[:start] + "\n" + body.rstrip("\n") + "\n" + text[stop:]
    if check:
        if updated != text:
            print(f"{path}'s {name} is stale: run {command}")
            return 1
        return 0
    document.write_text(updated)
    return 0
