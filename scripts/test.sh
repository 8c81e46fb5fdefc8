#!/usr/bin/env bash
# make test: runs the whole suite with `swift test`, then prints which tests were skipped and
# why (scripts/skipped-tests.py), and after a failure what failed (scripts/failed-tests.py). The
# exit status is swift test's own, or 1 when only scripts/check-library-docs.sh (the DocC
# catalogs and the library example, run after the whole suite) failed.
# Arguments are passed on to swift test (e.g. --filter Suite); with arguments the docs check
# is not run.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
# Swift Testing captures a backtrace at every Swift error thrown while a test runs (to show it
# if the error fails the test). The readers and scans throw to stop a walk early, and the
# robustness tests make thousands of files fail: with the capture, one query test took
# minutes instead of a second. A failing test still names the error and where it was
# caught; SWT_SWIFT_ERROR_BACKTRACING_ENABLED=1 make test brings the backtraces back.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED=${SWT_SWIFT_ERROR_BACKTRACING_ENABLED:-0}
work=$(mktemp -d "${TMPDIR:-/tmp}/realmctl-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$SWIFT" test --xunit-output "$work/xunit.xml" "$@" 2>&1 | tee "$work/output.txt"
status=${PIPESTATUS[0]}

# The whole suite only (not with --filter): the DocC catalogs (no broken symbol link) and the
# library example package, built and run (scripts/check-library-docs.sh, a few minutes the
# first time: it compiles the libraries once more for Examples/library).
docs_status=0
if [ "$#" -eq 0 ]; then
  echo "== Library documentation and example (scripts/check-library-docs.sh) =="
  SWIFT="$SWIFT" bash scripts/check-library-docs.sh || docs_status=$?
fi

if command -v python3 >/dev/null 2>&1; then
  python3 scripts/skipped-tests.py "$work/output.txt" "$work/xunit-swift-testing.xml" || true
else
  echo "(python3 is not installed: no summary of skipped tests)"
fi
if [ "$status" -ne 0 ] && command -v python3 >/dev/null 2>&1; then
  # What failed, last, where a CI log's tail shows it (and, after a crash, what was running).
  python3 scripts/failed-tests.py "$work/output.txt" || true
fi
if [ "$docs_status" -ne 0 ]; then
  echo "make test: FAILED (scripts/check-library-docs.sh: the library docs or example, see above)"
  if [ "$status" -eq 0 ]; then status=$docs_status; fi
elif [ "$status" -eq 0 ]; then
  echo "make test: passed"
else
  echo "make test: FAILED (swift test exit status $status)"
fi
exit "$status"
