#!/usr/bin/env python3
"""Lists the tests of a source file: the test files, suites and tests that use what it declares.

Usage: scripts/tests-for.py SOURCE.swift [...]   (or a type name: scripts/tests-for.py Migrator)

A source file declares types (struct/enum/class/actor/protocol) or extends them (`extension X`,
files named `X+Topic.swift`). A test uses them when its text names one of them as a word. For
each source the script prints the test files that do, with the `@Test`/`func test…` functions
whose bodies name them, most specific first (the test file named after the source, then by how
many tests name it). Names that stand in many sources (`Group`, `Schema`) give long lists: the
tests named after the file come first.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLARATION = re.compile(r"^\s*(?:public |internal |private |fileprivate |final |indirect )*"
                         r"(?:struct|enum|class|actor|protocol|extension)\s+([A-Z][A-Za-z0-9_]*)", re.M)
TEST_START = re.compile(r"^\s*(?:@Test[^\n]*\n\s*)?(?:(?:private |static |mutating )*)func\s+(\w+)\s*\(", re.M)


def declared_names(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    names = set(DECLARATION.findall(text))
    base = os.path.basename(path)[:-len(".swift")].split("+")[0]
    if base and base[0].isupper():
        names.add(base)
    return names


def test_files():
    for folder, _, files in os.walk(os.path.join(ROOT, "Tests")):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def tests_in(text):
    """(name, body) of each test function: from its `func` to the next one."""
    starts = [(m.start(), m.group(1)) for m in TEST_START.finditer(text)]
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        yield name, text[start:end]


def report(source, names):
    words = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b")
    stem = os.path.basename(source).split(".")[0].replace("+", "")
    rows = []
    for path in test_files():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not words.search(text):
            continue
        tests = [name for name, body in tests_in(text) if words.search(body)]
        own = os.path.basename(path).startswith(stem)
        rows.append((not own, -len(tests), os.path.relpath(path, ROOT), tests))
    print(f"{source} ({', '.join(sorted(names))}):")
    if not rows:
        print("  no test names it")
    for _, _, path, tests in sorted(rows):
        shown = ", ".join(tests[:6]) + (f", … ({len(tests)} in all)" if len(tests) > 6 else "")
        print(f"  {path}: {shown or 'named outside a test function (helpers, fixtures)'}")


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    for arg in sys.argv[1:]:
        if arg.endswith(".swift"):
            path = arg if os.path.isabs(arg) else os.path.join(os.getcwd(), arg)
            if not os.path.exists(path):
                print(f"tests-for: no such file: {arg}", file=sys.stderr)
                return 1
            report(os.path.relpath(path, ROOT), declared_names(path))
        else:
            report(arg, {arg})
    return 0


if __name__ == "__main__":
    sys.exit(main())
