#!/usr/bin/env python3
"""Prints a short summary of the tests a `swift test` run skipped, grouped by reason.

Usage: skipped-tests.py OUTPUT.txt [XUNIT-swift-testing.xml]

Swift Testing reports a skipped test (or suite) with the comment of the trait that disabled it,
e.g. `@Test(SharedFixtures.enabled)` when ../shared is absent. The xUnit file names each
skipped test with its module and suite and gives the comment; the console output is the
fallback when the xUnit file is missing (it names tests without their suite).
"""
import re
import sys
import xml.etree.ElementTree as ElementTree
from collections import OrderedDict

NO_REASON = "(no reason given)"


def from_xunit(path):
    """[(suite, test, reason)] of skipped test cases, or None when the file is unusable."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    found = []
    for case in root.iter("testcase"):
        skipped = case.find("skipped")
        if skipped is None:
            continue
        reason = (skipped.text or skipped.get("message") or "").strip() or NO_REASON
        found.append((case.get("classname", "?"), case.get("name", "?"), reason))
    return found


CONSOLE = re.compile(r'(Test|Suite) (.+?) skipped(?:: "(.*)")?\.?\s*$')


def from_console(path):
    """[(suite, test, reason)] from the console lines `➜ Test name() skipped: "reason".`"""
    found = []
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        return found
    for line in lines:
        m = CONSOLE.search(line)
        if m and m.group(1) == "Test":
            found.append(("", m.group(2), m.group(3) or NO_REASON))
    return found


def total_tests(path):
    """The number of tests of the run, from Swift Testing's last line, or None."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    runs = re.findall(r"Test run with (\d+) tests? ", text)
    return int(runs[-1]) if runs else None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    skipped = from_xunit(argv[2]) if len(argv) > 2 else None
    if skipped is None:
        skipped = from_console(argv[1])
    total = total_tests(argv[1])
    of = f" of {total}" if total is not None else ""
    print()
    print(f"== Skipped tests: {len(skipped)}{of} ==")
    if not skipped:
        print("none")
        return 0
    by_reason = OrderedDict()
    for suite, test, reason in sorted(skipped, key=lambda s: (s[2], s[0], s[1])):
        by_reason.setdefault(reason, OrderedDict()).setdefault(suite, []).append(test)
    for reason, suites in by_reason.items():
        count = sum(len(tests) for tests in suites.values())
        print(f"{count} skipped: {reason}")
        for suite, tests in suites.items():
            prefix = f"{suite}: " if suite else ""
            print(f"  {prefix}{', '.join(tests)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
