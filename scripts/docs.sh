#!/usr/bin/env bash
# make docs: the DocC documentation of the library products, with the toolchain's own docc (no
# plugin package), into .build/docs/<Module>/ (open its index.html through a web server, or
# `docc preview`). Fails on any docc warning, a broken symbol link included, and on a public type
# without a description (scripts/check-doc-descriptions.py).
#
# The symbol graphs come from the root package's own debug build: `swift build` (nothing to do
# right after `make test`'s build), then `swift-symbolgraph-extract` reads each product's
# compiled module (its interface and doc comments), a fraction of a second per module. The
# libraries are not compiled a second time for the docs.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-$(command -v docc || true)}
products=(RealmModel RealmFormat RealmStorage RealmJSON RealmQuery RealmExport RealmRewrite RealmMigration RealmEdit RealmDiff)
graphs=.build/docs/symbol-graphs

if [ -z "$DOCC" ]; then
  echo "docs: docc is not installed (it comes with the Swift toolchain from swift.org)" >&2
  exit 1
fi
# The extractor of the same toolchain as $SWIFT (a module is read only by its own compiler).
swift_path=$(command -v "$SWIFT")
extract=$(dirname "$(python3 -c 'import os, sys; print(os.path.realpath(sys.argv[1]))' "$swift_path")")/swift-symbolgraph-extract
[ -x "$extract" ] || extract=$(command -v swift-symbolgraph-extract || xcrun --find swift-symbolgraph-extract 2>/dev/null || true)
if [ -z "$extract" ]; then
  echo "docs: swift-symbolgraph-extract is not installed (it comes with the Swift toolchain)" >&2
  exit 1
fi
# Exit status 2 when the build fails (1 for docc warnings).
"$SWIFT" build || exit 2
bin=$("$SWIFT" build --show-bin-path)
triple=$(basename "$(dirname "$bin")")

status=0
rm -rf "$graphs"
for m in "${products[@]}"; do
  # Only the module's own graphs: M.symbols.json and its extensions of other modules' types
  # (M@Other.symbols.json). Inherited documentation (a standard protocol's requirement) is left
  # out, as the compiler's own graphs leave it out.
  mkdir -p "$graphs/$m"
  if ! "$extract" -module-name "$m" -I "$bin/Modules" -target "$triple" -minimum-access-level public \
    -skip-inherited-docs -output-dir "$graphs/$m" >".build/docs/$m.extract.log" 2>&1; then
    cat ".build/docs/$m.extract.log" >&2
    echo "docs: $m: no symbol graph (swift-symbolgraph-extract failed)" >&2
    exit 2
  fi
done
# Every public type has a description (a detached /// comment leaves it without one).
python3 scripts/check-doc-descriptions.py "$graphs" "${products[@]}" || status=1
# One docc per module; each one's verdict in its log and a status file.
convert() {
  local m=$1
  rm -rf ".build/docs/$m"
  if "$DOCC" convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$graphs/$m" \
    --fallback-display-name "$m" --fallback-bundle-identifier "dev.realmctl.$m" \
    --output-dir ".build/docs/$m" --warnings-as-errors >".build/docs/$m.log" 2>&1; then
    echo ok >".build/docs/$m.status"
  else
    echo failed >".build/docs/$m.status"
  fi
}
# In groups of as many as there are cores (bash 3's `wait` waits for all of them).
jobs_max=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
started=0
for m in "${products[@]}"; do
  rm -f ".build/docs/$m.status"
  convert "$m" &
  started=$((started + 1))
  if [ $((started % jobs_max)) -eq 0 ]; then wait; fi
done
wait
for m in "${products[@]}"; do
  if [ "$(cat ".build/docs/$m.status" 2>/dev/null)" = ok ]; then
    echo "docs: $m -> .build/docs/$m"
  else
    cat ".build/docs/$m.log" >&2
    echo "docs: $m FAILED (docc warnings above)" >&2
    status=1
  fi
done
exit "$status"
