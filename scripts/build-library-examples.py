#!/usr/bin/env python3
"""Builds the programs of Examples/library from the root package's own debug build.

Usage: build-library-examples.py OUT_DIR   (run from the repository root, after `swift build`)

`make test` has just compiled every library of the root package; building Examples/library as a
package of its own would compile all ten of them once more (about 150 CPU-seconds, the largest
part of the docs check). Instead:

1. `swift package show-dependencies` loads the example package's graph, so its manifest is
   checked as SwiftPM checks it (every product it names exists in the root package).
2. Each executable target's `main.swift` is compiled by `swiftc` against the root build's
   modules and linked with the object files of the modules its products need, the products the
   target declares and what they depend on (from `swift package describe`), as SwiftPM links
   an executable.

The programs land in OUT_DIR under their target names. Exit status 1 if any step fails.
"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

EXAMPLES = "Examples/library"


def swift_tool(name):
    """A tool of the toolchain of $SWIFT (default: the one on PATH)."""
    swift = shutil.which(os.environ.get("SWIFT", "swift"))
    if swift:
        sibling = os.path.join(os.path.dirname(os.path.realpath(swift)), name)
        if os.access(sibling, os.X_OK):
            return sibling
    return shutil.which(name) or name


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, **kwargs)


def describe(package_path):
    result = run([swift_tool("swift"), "package", "--package-path", package_path, "describe", "--type", "json"])
    if result.returncode != 0:
        sys.exit(f"build-library-examples: swift package describe failed for {package_path}:\n{result.stderr}")
    return json.loads(result.stdout)


def module_closure(root, products):
    """The root package's modules that the given products need, dependencies first."""
    targets = {t["name"]: t for t in root["targets"]}
    product_targets = {p["name"]: p["targets"] for p in root["products"]}
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for dependency in targets[name].get("target_dependencies", []):
            visit(dependency)
        order.append(name)

    for product in products:
        for name in product_targets[product]:
            visit(name)
    return order


def objects(bin_dir, module):
    """The object files of one module, from the build's own output-file map."""
    with open(os.path.join(bin_dir, f"{module}.build", "output-file-map.json")) as f:
        entries = json.load(f)
    return [entry["object"] for entry in entries.values() if "object" in entry]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: build-library-examples.py OUT_DIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    swift = swift_tool("swift")
    graph = run([swift, "package", "--package-path", EXAMPLES, "show-dependencies"])
    if graph.returncode != 0:
        sys.exit(f"build-library-examples: the manifest of {EXAMPLES} does not load:\n{graph.stderr}")
    bin_dir = run([swift, "build", "--show-bin-path"], check=True).stdout.strip()
    root = describe(".")
    examples = describe(EXAMPLES)
    swiftc = swift_tool("swiftc")

    def build(target):
        name = target["name"]
        modules = module_closure(root, target.get("product_dependencies", []))
        sources = [os.path.join(EXAMPLES, target["path"], source) for source in target["sources"]]
        args = [swiftc, "-module-name", name.replace("-", "_"), "-swift-version", "6",
                "-I", os.path.join(bin_dir, "Modules"), "-o", os.path.join(out_dir, name), *sources]
        for module in modules:
            args += objects(bin_dir, module)
        result = run(args)
        return name, result

    executables = [t for t in examples["targets"] if t["type"] == "executable"]
    failed = False
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for name, result in pool.map(build, executables):
            if result.returncode != 0:
                failed = True
                print(f"build-library-examples: {name} does not build:\n{result.stderr}", file=sys.stderr)
    if failed:
        sys.exit(1)
    print(f"build-library-examples: {len(executables)} programs -> {out_dir}")


if __name__ == "__main__":
    main()
