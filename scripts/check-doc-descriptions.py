#!/usr/bin/env python3
"""Every public type of every library product has a description (run by scripts/docs.sh).

Usage: check-doc-descriptions.py GRAPHS_DIR MODULE...

Reads the symbol graphs of each MODULE (GRAPHS_DIR/MODULE/MODULE.symbols.json and its extensions
of other modules' types, MODULE@Other.symbols.json, as scripts/docs.sh extracts them) and fails when a public or open
type (struct, class, enum, protocol, type alias, actor) has no documentation comment: DocC and
Quick Help would show it without a description. Also counts the public members without one.
"""
import glob
import json
import os
import sys

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


def documented(symbol):
    lines = (symbol.get("docComment") or {}).get("lines") or []
    return any(line.get("text", "").strip() for line in lines)


def main():
    graphs, modules = sys.argv[1], sys.argv[2:]
    missing = []
    members = 0
    for module in modules:
        folder = os.path.join(graphs, module)
        paths = [os.path.join(folder, f"{module}.symbols.json")] + sorted(glob.glob(os.path.join(folder, f"{module}@*.symbols.json")))
        if not os.path.exists(paths[0]):
            missing.append(f"{module}: no symbol graph ({paths[0]})")
            continue
        for path in paths:
            with open(path, encoding="utf-8") as f:
                graph = json.load(f)
            for symbol in graph.get("symbols", []):
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                name = ".".join(symbol.get("pathComponents", [])) or symbol.get("names", {}).get("title", "?")
                if documented(symbol):
                    continue
                if symbol.get("kind", {}).get("identifier") in TYPE_KINDS:
                    missing.append(f"{module}: {name}")
                else:
                    members += 1
    for m in missing:
        print(f"check-doc-descriptions: no description: {m}", file=sys.stderr)
    print(f"check-doc-descriptions: {len(modules)} modules, "
          f"{len(missing)} public types and {members} public members without a description")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
