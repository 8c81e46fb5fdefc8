#!/usr/bin/env bash
# The library documentation and its example, checked (part of `make test`, scripts/test.sh):
# 1. scripts/docs.sh: one debug build of Examples/library (the libraries and the ten example
#    programs, with symbol graphs), then `docc convert --warnings-as-errors` of every product's
#    catalog: no broken symbol link, no undocumented parameter.
# 2. scripts/check-library-examples.py: the programs run, each "Getting started" article shows
#    its program and output word for word, and the output is what Realm reads in the file.
# Cost: the first run compiles the ten library modules once more, unoptimised, into
# Examples/library/.build (the whole check: 100 seconds on a fresh clone on 2 quiet cores;
# later runs only what changed), then about 10 seconds of docc. Without docc (a toolchain without it) step 1 is skipped, with the
# reason, and the example is built without symbol graphs.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
status=0

if command -v "${DOCC:-docc}" >/dev/null 2>&1; then
  SWIFT="$SWIFT" bash scripts/docs.sh || status=$?
  if [ "$status" -eq 2 ]; then echo "check-library-docs: the example package does not build" >&2; exit 1; fi
else
  echo "check-library-docs: skipped the DocC check: docc is not installed (it comes with the Swift toolchain)"
  "$SWIFT" build --package-path Examples/library --disable-build-manifest-caching -Xswiftc -Onone || { echo "check-library-docs: the example package does not build" >&2; exit 1; }
fi
if command -v python3 >/dev/null 2>&1; then
  python3 scripts/check-library-examples.py Examples/library/.build/debug || status=1
  if [ "$status" -ne 0 ]; then status=1; fi
else
  echo "check-library-docs: skipped the example check: python3 is not installed"
fi
exit "$status"
