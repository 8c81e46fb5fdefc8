#!/usr/bin/env bash
# The library documentation and its example, checked (part of `make test`, scripts/test.sh),
# from the root package's own debug build (the one `swift test` has just made; nothing is
# compiled twice):
# 1. scripts/docs.sh: the symbol graph of every product, read from its compiled module, then
#    `docc convert --warnings-as-errors` of every product's catalog: no broken symbol link, no
#    undocumented parameter, no public type without a description.
# 2. scripts/build-library-examples.py: the manifest of Examples/library loads (every product it
#    names exists), and its ten programs are compiled against the built libraries, into
#    .build/library-examples.
# 3. scripts/check-library-examples.py: the programs run, each "Getting started" article shows
#    its program and output word for word, and the output is what Realm reads in the file.
# Cost: about 15 seconds of docc and 10 of compiling and linking the programs. Without docc (a
# toolchain without it) step 1 is skipped, with the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
status=0
examples=.build/library-examples

if ! command -v python3 >/dev/null 2>&1; then
  echo "check-library-docs: skipped: python3 is not installed"
  exit 0
fi
if command -v "${DOCC:-docc}" >/dev/null 2>&1; then
  SWIFT="$SWIFT" bash scripts/docs.sh || status=$?
  if [ "$status" -eq 2 ]; then echo "check-library-docs: the libraries do not build" >&2; exit 1; fi
else
  echo "check-library-docs: skipped the DocC check: docc is not installed (it comes with the Swift toolchain)"
  "$SWIFT" build || { echo "check-library-docs: the libraries do not build" >&2; exit 1; }
fi
SWIFT="$SWIFT" python3 scripts/build-library-examples.py "$examples" || exit 1
python3 scripts/check-library-examples.py "$examples" || status=1
if [ "$status" -ne 0 ]; then status=1; fi
exit "$status"
