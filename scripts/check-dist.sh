#!/usr/bin/env bash
# Checks release archives as a user gets them: scripts/check-dist.sh dist/realmctl-1.0.0-linux-x86_64.tar.gz
#
# For each archive: its .sha256 verifies; it unpacks into an empty directory with exactly the
# expected files; there `env -i ./realmctl --version` (an empty environment) prints the version
# of the archive's name, with the commit when built from git, and `open` of a fixture works;
# `realmctl version --json` names the archive's system and architecture; on Linux the binary is
# static (no program interpreter), on macOS universal (arm64 and x86_64); the man page renders
# (groff, mandoc or man); the bash, zsh and fish completions load (zsh and fish when installed).
# Prints "ok: ...", "skipped: ... (why)" or "FAILED: ..." a line; exits 1 when anything failed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
fixture="$repo/Examples/seed/tutorial.realm"
failures=0
ok() { echo "ok: $*"; }
skip() { echo "skipped: $*"; }
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
have() { command -v "$1" >/dev/null 2>&1; }

[ $# -gt 0 ] || { echo "usage: scripts/check-dist.sh ARCHIVE.tar.gz ..." >&2; exit 64; }

check() {
  local archive=$1
  local name
  name=$(basename "$archive" .tar.gz)
  echo "== $name"
  if [[ ! "$name" =~ ^realmctl-([0-9]+\.[0-9]+\.[0-9]+[^-]*)-([a-z]+)-([a-z0-9_]+)$ ]]; then
    fail "the name $name is not realmctl-VERSION-OS-ARCH"
    return
  fi
  local version=${BASH_REMATCH[1]} os=${BASH_REMATCH[2]} arch=${BASH_REMATCH[3]}

  # The checksum, as a user checks it, next to the archive.
  local sum="$archive.sha256"
  if [ ! -f "$sum" ]; then
    fail "$sum is missing"
  elif (cd "$(dirname "$archive")" && if have sha256sum; then sha256sum -c --status "$(basename "$sum")"; else shasum -a 256 -c -s "$(basename "$sum")"; fi); then
    ok "the checksum in $(basename "$sum") verifies"
  else
    fail "the checksum in $(basename "$sum") does not match the archive"
  fi

  # Unpacked into an empty directory: exactly these files.
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/realmctl-dist-check.XXXXXX")
  if ! tar -xzf "$archive" -C "$dir"; then
    fail "tar cannot unpack $archive"
    rm -rf "$dir"
    return
  fi
  local listed expected
  listed=$(cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
  expected="LICENSE README.md completions/_realmctl completions/realmctl.bash completions/realmctl.fish realmctl realmctl.1 "
  if [ "$listed" = "$expected" ]; then ok "the archive holds $expected"; else fail "the archive holds '$listed', expected '$expected'"; fi
  if [ -x "$dir/realmctl" ]; then ok "realmctl is executable"; else fail "realmctl is not executable"; fi
  if cmp -s "$dir/LICENSE" "$repo/LICENSE"; then ok "LICENSE is the repository's"; else fail "LICENSE differs from the repository's"; fi

  # The binary in an empty environment, from the empty directory.
  local out
  if out=$(cd "$dir" && env -i ./realmctl --version 2>&1); then
    ok "env -i ./realmctl --version: $out"
  else
    fail "env -i ./realmctl --version failed: $out"
  fi
  if [ "${out%% *}" = "$version" ]; then
    ok "the binary's version is the archive's ($version)"
  else
    fail "the binary says '${out%% *}', the archive's name '$version'"
  fi
  # Built by make from a git checkout, the binary names its commit (the checkout's own when
  # REALMCTL_DIST_EXPECT_HEAD=1, as make dist-check sets it right after building).
  local head=""
  head=$(git -C "$repo" rev-parse --short=12 HEAD 2>/dev/null) || head=""
  if [ -n "$head" ]; then
    if [ "${REALMCTL_DIST_EXPECT_HEAD:-}" = 1 ]; then
      case "$out" in
        *"(commit $head"*) ok "the binary names the checkout's commit ($head)" ;;
        *) fail "the binary does not name the checkout's commit $head: $out" ;;
      esac
    else
      case "$out" in
        *"(commit "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]*) ok "the binary names its commit" ;;
        *) fail "the binary names no commit: $out" ;;
      esac
    fi
  fi
  local opened
  if opened=$(cd "$dir" && env -i ./realmctl open "$fixture" 2>&1) &&
    grep -q '^File format: *24' <<<"$opened" && grep -q '^  User  100 objects' <<<"$opened"; then
    ok "env -i ./realmctl open Examples/seed/tutorial.realm: format 24, User 100 objects"
  else
    fail "env -i ./realmctl open of the tutorial fixture: $opened"
  fi
  local json
  json=$(cd "$dir" && env -i ./realmctl version --json 2>&1)
  case "$os" in
    linux) grep -q '"system":"Linux"' <<<"$json" && ok "version --json: Linux" || fail "version --json does not say Linux: $json" ;;
    macos) grep -q '"system":"macOS"' <<<"$json" && ok "version --json: macOS" || fail "version --json does not say macOS: $json" ;;
    *) fail "unknown system '$os' in the archive's name" ;;
  esac

  # Linux: static (no PT_INTERP program header); macOS: both architectures.
  if [ "$os" = linux ]; then
    if ! have python3; then
      skip "the static-executable check (python3 is not installed)"
    elif python3 - "$dir/realmctl" "$arch" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read(1 << 16)
assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF file"
machine = struct.unpack_from("<H", data, 18)[0]
expected = {"x86_64": 62, "arm64": 183}.get(sys.argv[2])
assert expected is None or machine == expected, f"ELF machine {machine}, not {sys.argv[2]}"
phoff, = struct.unpack_from("<Q", data, 32)
phentsize, phnum = struct.unpack_from("<HH", data, 54)
types = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
assert 3 not in types, "it has a program interpreter (PT_INTERP): dynamically linked"
PY
    then
      ok "realmctl is a static $arch executable (no program interpreter)"
    else
      fail "realmctl is not a static $arch executable"
    fi
  elif [ "$os" = macos ]; then
    if ! have lipo; then
      skip "the universal-binary check (lipo is not installed)"
    else
      local archs
      archs=$(lipo -archs "$dir/realmctl" 2>&1)
      case "$archs" in
        *arm64*x86_64* | *x86_64*arm64*) ok "realmctl is universal ($archs)" ;;
        *) fail "realmctl is not universal: $archs" ;;
      esac
    fi
  fi

  # The man page renders.
  local page
  if have groff; then
    if page=$(groff -man -Tutf8 -ww "$dir/realmctl.1" 2>&1 >/dev/null) && [ -z "$page" ] &&
      groff -man -Tutf8 -P -c -P -b -P -u "$dir/realmctl.1" 2>/dev/null | grep -q "realmctl $version"; then
      ok "the man page renders with groff, without warnings, for realmctl $version"
    else
      fail "groff: the man page does not render cleanly: $page"
    fi
  elif have mandoc; then
    if page=$(mandoc -T lint -W warning "$dir/realmctl.1" 2>&1) && [ -z "$page" ]; then
      ok "the man page passes mandoc -T lint"
    else
      fail "mandoc: $page"
    fi
  elif have man && man -l /dev/null >/dev/null 2>&1; then
    if man -l "$dir/realmctl.1" 2>/dev/null | grep -q realmctl; then ok "man -l renders the man page"; else fail "man -l cannot render the man page"; fi
  else
    skip "the man page check (neither groff, mandoc nor man -l is installed)"
  fi

  # The completions load.
  local loaded
  if loaded=$(bash --norc --noprofile -c "source '$dir/completions/realmctl.bash' && complete -p realmctl" 2>&1) &&
    grep -q 'realmctl$' <<<"$loaded"; then
    ok "bash loads completions/realmctl.bash ($loaded)"
  else
    fail "bash cannot load completions/realmctl.bash: $loaded"
  fi
  if have zsh; then
    if loaded=$(cd "$dir" && HOME=$dir zsh -f -c "autoload -U compinit; compinit -u -D; source '$dir/completions/_realmctl'; print -r -- \${_comps[realmctl]}" 2>&1) &&
      [ "$loaded" = _realmctl ]; then
      ok "zsh loads completions/_realmctl"
    else
      fail "zsh cannot load completions/_realmctl: $loaded"
    fi
  else
    skip "the zsh completion check (zsh is not installed)"
  fi
  if have fish; then
    if loaded=$(HOME=$dir fish --no-config -c "source '$dir/completions/realmctl.fish'; complete -C'realmctl '" 2>&1) &&
      grep -q '^open' <<<"$loaded"; then
      ok "fish loads completions/realmctl.fish"
    else
      fail "fish cannot load completions/realmctl.fish: $loaded"
    fi
  else
    skip "the fish completion check (fish is not installed)"
  fi
  rm -rf "$dir"
}

for archive in "$@"; do check "$archive"; done
if [ "$failures" -gt 0 ]; then
  echo "check-dist: $failures check(s) FAILED"
  exit 1
fi
echo "check-dist: passed"
