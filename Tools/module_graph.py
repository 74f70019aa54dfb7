#!/usr/bin/env python3
"""Prints Reel's module graph as the sources really are: for each target under Sources/, the
project's own modules its files import (`import X`, `public import X`, `@_exported import X`,
`@testable import X`, `@_spi(S) import X`). Used for the handbook's Architecture article
(Sources/Reel/Reel.docc/Architecture.md); run it after changing imports.

    python3 Tools/module_graph.py [--check [ARTICLE]]

With --check, exits 1 when the graph block in ARTICLE (default: the Architecture article) differs
from the sources.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")
ARTICLE = os.path.join(SOURCES, "Reel", "Reel.docc", "Architecture.md")
IMPORT = re.compile(r"^\s*(?:@_exported\s+|@testable\s+|@_spi\(\w+\)\s+)*(?:public\s+|internal\s+|package\s+)?import\s+(?:(?:struct|enum|class|protocol|func|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
# Folders whose module name differs from the folder (Package.swift `path:`).
MODULE_OF_FOLDER = {"ReelCLI": "reel"}


def graph():
    modules = sorted(d for d in os.listdir(SOURCES) if os.path.isdir(os.path.join(SOURCES, d)))
    names = {MODULE_OF_FOLDER.get(m, m) for m in modules}
    edges = {}
    for folder in modules:
        module = MODULE_OF_FOLDER.get(folder, folder)
        found = set()
        for base, _, files in os.walk(os.path.join(SOURCES, folder)):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                with open(os.path.join(base, name), encoding="utf-8") as f:
                    for line in f:
                        m = IMPORT.match(line)
                        if m and m.group(1) in names and m.group(1) != module:
                            found.add(m.group(1))
        if not folder.startswith("C") or folder in ("Catalog",):
            edges[module] = sorted(found)
    return edges


def render(edges):
    width = max(len(m) for m in edges)
    return "\n".join(f"{m.ljust(width)}  → {', '.join(deps) if deps else '(nothing of Reel)'}" for m, deps in sorted(edges.items()))


def main():
    text = render(graph())
    if len(sys.argv) in (2, 3) and sys.argv[1] == "--check":
        article = sys.argv[2] if len(sys.argv) == 3 else ARTICLE
        with open(article, encoding="utf-8") as f:
            written = f.read()
        if text not in written:
            print(f"the module graph in {os.path.relpath(article, ROOT)} differs from the sources; it should read:\n" + text, file=sys.stderr)
            return 1
        return 0
    if len(sys.argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
