"""Rewrites (or checks) one generated section of README.md, between its markers."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def update(name, body, check, command):
    """Puts `body` between <!-- NAME:begin --> and <!-- NAME:end -->; with `check`, only
    says whether it is already there.  Returns the exit status."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, stop = text.index(begin) + len(begin), text.index(end)
    updated = text[:start] + "\n" + body.rstrip("\n") + "\n" + text[stop:]
    if check:
        if updated != text:
            print(f"README.md's {name} is stale: run {command}")
            return 1
        return 0
    readme.write_text(updated)
    return 0
