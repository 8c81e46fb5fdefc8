#!/usr/bin/env bash
# The GitHub Action of action.yml (setup-realmctl): downloads the release archive for the
# runner's system and architecture, checks its sha256, unpacks it and puts realmctl on the PATH.
# Tested without GitHub (SetupActionTests) against a local archive through file:// URLs.
#
# Inputs (environment):
#   REALMCTL_VERSION          1.0.0, v1.0.0 or latest (default latest)
#   REALMCTL_CHECKSUM_VERIFY  true (default) or false
#   REALMCTL_REPOSITORY       owner/name of the releases (the action's own repository)
#   REALMCTL_TOKEN            optional GitHub token for the API call that finds the latest release
#   REALMCTL_DOWNLOAD_URL     optional: the directory of the archives (default: the release of the
#                             version on GitHub); REALMCTL_LATEST_URL: the API's "latest release"
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT: set by the runner
set -euo pipefail

die() {
  echo "::error title=setup-realmctl::$*" >&2
  exit 1
}

version=${REALMCTL_VERSION:-latest}
verify=${REALMCTL_CHECKSUM_VERIFY:-true}
repository=${REALMCTL_REPOSITORY:-}
case "$verify" in
  true | false) ;;
  *) die "checksum-verify must be true or false, not '$verify'" ;;
esac
[ -n "${GITHUB_PATH:-}" ] || die "GITHUB_PATH is not set: this script runs as a GitHub Action step"
command -v curl >/dev/null 2>&1 || die "curl is not installed"

fetch() { # URL [curl options...]: the body on stdout; fails on an HTTP error
  local url=$1
  shift
  curl --fail --silent --show-error --location --retry 3 "$@" "$url"
}

# The target of the runner: the names of scripts/dist.sh.
case "${RUNNER_OS:-$(uname -s)}" in
  Linux)
    case "${RUNNER_ARCH:-$(uname -m)}" in
      X64 | x86_64 | amd64) target=linux-x86_64 ;;
      ARM64 | aarch64 | arm64) target=linux-arm64 ;;
      *) die "no realmctl archive for Linux on ${RUNNER_ARCH:-$(uname -m)}" ;;
    esac
    ;;
  macOS | Darwin) target=macos-universal ;;
  *) die "no realmctl archive for ${RUNNER_OS:-$(uname -s)} (Linux and macOS runners only)" ;;
esac

if [ "$version" = latest ]; then
  [ -n "$repository" ] || [ -n "${REALMCTL_LATEST_URL:-}" ] || die "no repository to find the latest release in"
  latest_url=${REALMCTL_LATEST_URL:-https://api.github.com/repos/$repository/releases/latest}
  auth=()
  if [ -n "${REALMCTL_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $REALMCTL_TOKEN"); fi
  # (${auth[@]+...}: an empty array under set -u in macOS's bash 3.2.)
  release=$(fetch "$latest_url" -H "Accept: application/vnd.github+json" ${auth[@]+"${auth[@]}"}) ||
    die "cannot find the latest release at $latest_url"
  version=$(printf '%s' "$release" | tr -d '\n' | sed -n 's/.*"tag_name"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
  [ -n "$version" ] || die "the latest release at $latest_url has no tag_name"
fi
version=${version#v}
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]] || die "'$version' is not a realmctl version (MAJOR.MINOR.PATCH)"

name="realmctl-$version-$target.tar.gz"
if [ -n "${REALMCTL_DOWNLOAD_URL:-}" ]; then
  base=${REALMCTL_DOWNLOAD_URL%/}
else
  [ -n "$repository" ] || die "no repository to download realmctl from"
  base="https://github.com/$repository/releases/download/v$version"
fi
work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/setup-realmctl.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "Downloading $base/$name"
fetch "$base/$name" --output "$work/$name" || die "cannot download $base/$name"

if [ "$verify" = true ]; then
  fetch "$base/$name.sha256" --output "$work/$name.sha256" || die "cannot download $base/$name.sha256"
  expected=$(awk 'NR == 1 { print tolower($1) }' "$work/$name.sha256")
  [[ "$expected" =~ ^[0-9a-f]{64}$ ]] || die "$name.sha256 holds no sha256"
  if command -v sha256sum >/dev/null 2>&1; then
    actual=$(sha256sum "$work/$name" | awk '{ print $1 }')
  else
    actual=$(shasum -a 256 "$work/$name" | awk '{ print $1 }')
  fi
  [ "$actual" = "$expected" ] || die "checksum mismatch for $name: expected $expected, got $actual"
  echo "sha256 verified: $actual"
else
  echo "::warning title=setup-realmctl::the checksum of $name was not verified (checksum-verify: false)"
fi

install_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/realmctl/$version"
rm -rf "$install_dir"
mkdir -p "$install_dir"
tar -xzf "$work/$name" -C "$install_dir" || die "cannot unpack $name"
[ -x "$install_dir/realmctl" ] || die "$name holds no realmctl executable"
reported=$("$install_dir/realmctl" --version) || die "the installed realmctl does not run"
[ "${reported%% *}" = "$version" ] || die "the installed realmctl says '$reported', not $version"

echo "$install_dir" >> "$GITHUB_PATH"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "version=$version"
    echo "path=$install_dir"
  } >> "$GITHUB_OUTPUT"
fi
echo "Installed realmctl $reported in $install_dir (added to the PATH)"
