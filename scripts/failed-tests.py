#!/usr/bin/env python3
"""Prints, after a failed `swift test` run, what failed, at the end of the output where a CI log
shows it.

Usage: failed-tests.py OUTPUT.txt

It lists Swift Testing's failure lines (`✘ ...`), XCTest's (`error: ...` of a test case) and
swift test's own errors (a test process that died, e.g. `Exited with unexpected signal code`).
When the run printed no summary line (the test process ended early: a crash, a trap, a kill),
it also names the tests that had started and never finished, which is where to look.
"""
import re
import sys
from collections import Counter

# "━" ends a test, suite or run that passed with known issues (withKnownIssue, e.g. ExpectEqualTests).
STARTED = re.compile(r"^◇ (Test|Suite) (.+?) started\.$")
ENDED = re.compile(r"^[✔✘➜━] (Test|Suite) (.+?) (passed|failed|skipped)\b")
FAILURE = re.compile(r"^✘ |: error: |^error: |Fatal error|Exited with (unexpected )?signal")
SUMMARY = re.compile(r"^[✔✘━] Test run with \d+ tests?")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        lines = open(argv[1], encoding="utf-8", errors="replace").read().splitlines()
    except OSError as error:
        print(f"(no test output to summarise: {error})")
        return 0
    failures = [line for line in lines if FAILURE.search(line)]
    running = Counter()
    for line in lines:
        started = STARTED.match(line)
        # A parameterised test's cases print no end of their own: the test's line covers them.
        if started and not line.startswith("◇ Test case "):
            running[(started.group(1), started.group(2))] += 1
            continue
        if started:
            continue
        ended = ENDED.match(line)
        if ended:
            key = (ended.group(1), ended.group(2))
            if running[key] > 0:
                running[key] -= 1
    print()
    print(f"== Failures: {len(failures)} line(s) ==")
    for line in failures[:200]:
        print(line[:2000])
    if len(failures) > 200:
        print(f"... and {len(failures) - 200} more")
    if not any(SUMMARY.search(line) for line in lines):
        unfinished = sorted(f"{kind} {name}" for (kind, name), n in running.items() for _ in range(n))
        tests = [u for u in unfinished if u.startswith("Test ")]
        print()
        print("The test run printed no summary: the test process ended early (crash, trap or kill).")
        print(f"Tests started and not finished ({len(tests)}):")
        for name in tests[:40]:
            print(f"  {name}")
        print("Its last lines:")
        for line in lines[-15:]:
            print(f"  {line[:500]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
