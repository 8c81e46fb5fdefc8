#!/usr/bin/env bash
# make dist: the release archive of this machine, dist/realmctl-VERSION-OS-ARCH.tar.gz, and its
# .sha256 ("HASH  NAME", as sha256sum -c and shasum -a 256 -c read it).
#
#   Linux:  the static release binary (RELEASE_FLAGS, as `make install` builds it), named for the
#           machine: realmctl-1.0.0-linux-x86_64.tar.gz, realmctl-1.0.0-linux-arm64.tar.gz
#   macOS:  a universal binary (arm64 and x86_64): realmctl-1.0.0-macos-universal.tar.gz
#
# The archive holds, at its top level: realmctl, realmctl.1 (the man page), completions/
# (realmctl.bash, _realmctl, realmctl.fish), LICENSE and README.md. The man page and the
# completions are printed by the binary itself, so they match it.
#
# `scripts/dist.sh package BINARY OUTDIR` only packs an existing binary (the action's tests use
# it with the debug build); VERSION, OS and ARCH then come from the environment or this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
VERSION=${VERSION:-$(sed -n 's/^  public static let number = "\(.*\)"$/\1/p' Sources/RealmCLI/Version/ReleaseVersion.swift)}
[ -n "$VERSION" ] || { echo "dist: no version in Sources/RealmCLI/Version/ReleaseVersion.swift" >&2; exit 1; }

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  *) echo "dist: unsupported system $(uname -s)" >&2; exit 1 ;;
esac
if [ "$os" = macos ]; then
  arch=universal
else
  case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
fi
OS=${OS:-$os}
ARCH=${ARCH:-$arch}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; else shasum -a 256 "$1"; fi
}

# package BINARY OUTDIR: writes OUTDIR/realmctl-VERSION-OS-ARCH.tar.gz and its .sha256.
package() {
  local binary=$1 outdir=$2
  local name="realmctl-$VERSION-$OS-$ARCH"
  local stage
  stage=$(mktemp -d "${TMPDIR:-/tmp}/realmctl-dist.XXXXXX")
  mkdir -p "$stage/completions" "$outdir"
  install -m 755 "$binary" "$stage/realmctl"
  # The man page is dated by the commit (reproducible), else today.
  local epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
  SOURCE_DATE_EPOCH=$epoch "$stage/realmctl" generate-manual > "$stage/realmctl.1"
  "$stage/realmctl" completion bash > "$stage/completions/realmctl.bash"
  "$stage/realmctl" completion zsh > "$stage/completions/_realmctl"
  "$stage/realmctl" completion fish > "$stage/completions/realmctl.fish"
  cp LICENSE "$stage/LICENSE"
  sed -e "s/@VERSION@/$VERSION/g" -e "s/@TARGET@/$OS-$ARCH/g" scripts/dist-README.md > "$stage/README.md"
  chmod 644 "$stage/realmctl.1" "$stage"/completions/* "$stage/LICENSE" "$stage/README.md"
  local files=(realmctl realmctl.1 completions LICENSE README.md)
  if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    # Reproducible: sorted names, no owner, the commit's time.
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "${files[@]}" |
      gzip -n > "$outdir/$name.tar.gz"
  else
    tar -C "$stage" -cf - "${files[@]}" | gzip -n > "$outdir/$name.tar.gz"
  fi
  (cd "$outdir" && sha256 "$name.tar.gz" > "$name.tar.gz.sha256")
  rm -rf "$stage"
  echo "$outdir/$name.tar.gz"
}

if [ "${1:-}" = package ]; then
  package "$2" "$3"
  exit 0
fi

if [ "$os" = macos ]; then
  build=(-c release --product realmctl --arch arm64 --arch x86_64)
else
  # shellcheck disable=SC2206 # RELEASE_FLAGS is a list of words, as in the Makefile.
  build=(-c release --product realmctl ${RELEASE_FLAGS---Xswiftc -static-executable})
fi
"$SWIFT" build "${build[@]}"
binary="$("$SWIFT" build "${build[@]}" --show-bin-path)/realmctl"
if [ "$os" = macos ]; then
  archs=$(lipo -archs "$binary")
  case "$archs" in
    *arm64*x86_64* | *x86_64*arm64*) ;;
    *) echo "dist: $binary is not universal (architectures: $archs)" >&2; exit 1 ;;
  esac
fi
package "$binary" dist
