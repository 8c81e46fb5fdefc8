#!/usr/bin/env bash
# make docs: the DocC documentation of the library products, with the toolchain's own docc (no
# plugin package), into .build/docs/<Module>/ (open its index.html through a web server, or
# `docc preview`). Fails on any docc warning, a broken symbol link included, and on a public type
# without a description (scripts/check-doc-descriptions.py).
#
# The symbol graphs come from one debug build of the example package (Examples/library), which
# depends on every product: `swift build -Xswiftc -emit-symbol-graph` compiles the libraries
# and the example programs at once, so `make test` (scripts/check-library-docs.sh) gets the
# graphs and the programs it runs from a single build. The first build compiles the ten
# library modules (under 2 minutes on 2 cores), later ones only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
DOCC=${DOCC:-$(command -v docc || true)}
products=(RealmModel RealmFormat RealmStorage RealmJSON RealmQuery RealmExport RealmRewrite RealmMigration RealmEdit RealmDiff)
examples=Examples/library
graphs=$PWD/$examples/.build/symbol-graphs

if [ -z "$DOCC" ]; then
  echo "docs: docc is not installed (it comes with the Swift toolchain from swift.org)" >&2
  exit 1
fi
# Kept between runs: the build re-emits the graph of every module it recompiles.
mkdir -p "$graphs"
# Exit status 2 when the build fails (1 for docc warnings). The build plan is made afresh each
# time (--disable-build-manifest-caching): a cached plan does not see source files added to the
# root package, which is a dependency here.
build() {
  # -Onone (the last optimisation flag wins): Package.swift optimises some libraries in debug
  # builds for the test suite; the example programs read one small file, and this build
  # compiles the libraries once more, so it need not spend the time.
  "$SWIFT" build --package-path "$examples" --disable-build-manifest-caching -Xswiftc -Onone \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" || exit 2
}
build
# A build that compiles nothing emits nothing: if a graph is missing (the folder was deleted),
# drop that module's compiled interface so that the next build compiles it again.
missing=0
for m in "${products[@]}"; do
  if [ ! -e "$graphs/$m.symbols.json" ]; then
    rm -f "$examples/.build/debug/Modules/$m.swiftmodule"
    missing=1
  fi
done
if [ "$missing" -eq 1 ]; then build; fi

status=0
# Every public type has a description (a detached /// comment leaves it without one).
python3 scripts/check-doc-descriptions.py "$graphs" "${products[@]}" || status=1
for m in "${products[@]}"; do
  # Only the module's own graphs: M.symbols.json and its extensions of other modules' types
  # (M@Other.symbols.json).
  dir=.build/docs/symbol-graphs/$m
  rm -rf "$dir" ".build/docs/$m"
  mkdir -p "$dir"
  cp "$graphs/$m.symbols.json" "$dir/"
  for extension in "$graphs/$m@"*.symbols.json; do
    if [ -e "$extension" ]; then cp "$extension" "$dir/"; fi
  done
  if "$DOCC" convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$dir" \
    --fallback-display-name "$m" --fallback-bundle-identifier "dev.realmctl.$m" \
    --output-dir ".build/docs/$m" --warnings-as-errors >".build/docs/$m.log" 2>&1; then
    echo "docs: $m -> .build/docs/$m"
  else
    cat ".build/docs/$m.log" >&2
    echo "docs: $m FAILED (docc warnings above)" >&2
    status=1
  fi
done
exit "$status"
