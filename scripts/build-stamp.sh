#!/usr/bin/env bash
# Writes Sources/RealmCLI/Version/BuildStamp.generated.swift (ignored by git): the commit, the
# day and the Swift compiler's version of this build, which `realmctl --version` prints. The
# Makefile runs it before every build. Outside a git checkout (a source archive) it removes the
# file, and realmctl says its commit is unknown, as after a plain `swift build`.
# The file is rewritten only when its content changes, so an unchanged stamp rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/RealmCLI/Version/BuildStamp.generated.swift
SWIFT=${SWIFT:-swift}

if ! commit=$(git rev-parse --short=12 HEAD 2>/dev/null); then
  rm -f "$out"
  exit 0
fi
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
# The day of the build in UTC, or of SOURCE_DATE_EPOCH (reproducible builds).
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  day=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
  day=$(date -u +%Y-%m-%d)
fi
# "Swift version 6.2.1 (swift-6.2.1-RELEASE)" on Linux, "... Apple Swift version 6.2 (...)" on macOS.
compiler=$("$SWIFT" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1 || true)

new=$(cat <<SWIFT
// Written by scripts/build-stamp.sh (make); ignored by git. See BuildStamp.swift.
extension BuildInfo: BuildStamped {
  static let commit = "$commit"
  static let date = "$day"
  static let compiler = "$compiler"
}
SWIFT
)
if [ ! -f "$out" ] || [ "$(cat "$out")" != "$new" ]; then
  printf '%s\n' "$new" > "$out"
fi
