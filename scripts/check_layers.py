#!/usr/bin/env python3
"""Fails when a file of the library includes a header of a layer above its own.

The layer order is the first ```text block after the heading "## The layer order" of
docs/architecture.md (one folder per line, bottom first; text after '#' is a comment). Every file
under src/exactdp/<layer>/ may include "exactdp/<other>/..." only when <other> is its own layer or
one listed before it. Also fails when a folder of src/exactdp/ is missing from the order, or an
include names a folder that is not a layer.

Usage: check_layers.py [--root REPO]        (exit 0: no violation; 1: violations, one per line)
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]exactdp/([^/">]+)/([^">]*)[">]')


def layer_order(architecture: pathlib.Path) -> list[str]:
    """The layers, bottom first, from the text block under "## The layer order"."""
    lines = architecture.read_text(encoding="utf-8").splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "## The layer order")
    except StopIteration:
        raise SystemExit(f"{architecture}: no '## The layer order' heading")
    layers: list[str] = []
    inside = False
    for line in lines[start + 1:]:
        if not inside:
            if line.strip().startswith("```"):
                inside = True
            elif line.startswith("## "):
                break
            continue
        if line.strip().startswith("```"):
            break
        name = line.split("#", 1)[0].strip()
        if name:
            if name in layers:
                raise SystemExit(f"{architecture}: layer '{name}' listed twice")
            layers.append(name)
    if not layers:
        raise SystemExit(f"{architecture}: the layer order block is empty or missing")
    return layers


def violations(root: pathlib.Path) -> list[str]:
    library = root / "src" / "exactdp"
    order = layer_order(root / "docs" / "architecture.md")
    rank = {name: i for i, name in enumerate(order)}
    found: list[str] = []
    folders = sorted(p.name for p in library.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in rank:
            found.append(f"src/exactdp/{folder}/: folder is not in the layer order of docs/architecture.md "
                         "(add it there, in its place)")
    for path in sorted(library.rglob("*")):
        if not path.is_file() or path.suffix not in {".hpp", ".cpp", ".h", ".ipp", ".inl"}:
            continue
        relative = path.relative_to(root)
        own = path.relative_to(library).parts[0]
        if own not in rank:
            continue  # reported above
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            if target not in rank:
                found.append(f"{relative}:{number}: includes exactdp/{target}/, which is not a layer "
                             "of docs/architecture.md")
            elif rank[target] > rank[own]:
                found.append(f"{relative}:{number}: {own}/ includes {target}/{match.group(2)}, but {target} "
                             f"is above {own} in the layer order (a layer may include only itself and "
                             f"the layers below it: {' < '.join(order[:rank[own] + 1])})")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                        help="the repository (default: this script's parent folder)")
    args = parser.parse_args()
    found = violations(args.root)
    for line in found:
        print(line)
    if found:
        print(f"check_layers: {len(found)} include(s) break the layer order of docs/architecture.md", file=sys.stderr)
        return 1
    print("check_layers: every include of src/exactdp/ points to its own layer or one below it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
