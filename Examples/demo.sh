#!/bin/sh
# `make demo`: a tour of realmctl on the files in Examples/. Usage: demo.sh path/to/realmctl
set -eu
REALMCTL=${1:-.build/debug/realmctl}
cd "$(dirname "$0")/.."
BUILD=Examples/build
mkdir -p "$BUILD"

run() {
  printf '\n$ realmctl %s\n' "$*"
  "$REALMCTL" "$@"
}

echo "== Inspecting a real Realm file (written by Realm Core 14)"
run open Examples/seed/tutorial.realm
run schema Examples/seed/tutorial.realm
run schema Examples/seed/tutorial.realm --format swift
run dump Examples/seed/tutorial.realm --format table --limit 5
run dump Examples/seed/tutorial.realm --format jsonl --limit 3
run dump Examples/seed/embedded.realm --format jsonl --limit 1

echo
echo "== Building a Realm file from reviewable text, then migrating it"
rm -f "$BUILD/people.realm" "$BUILD/people.realm.lock"
run create "$BUILD/people.realm" --schema Examples/people/schema.json --data Examples/people/data.jsonl
run open "$BUILD/people.realm" --check
cp "$BUILD/people.realm" "$BUILD/people-auto.realm"
run migrate --plan Examples/people/plan-v2-automatic.json "$BUILD/people-auto.realm"
run dump "$BUILD/people-auto.realm" --format table
run migrate --plan Examples/people/plan-v2.json "$BUILD/people.realm"
run dump "$BUILD/people.realm" --format table
run rename-property "$BUILD/people.realm" Person fullName name
run schema "$BUILD/people.realm"
