#!/bin/sh
# Usage: check-migrations.sh PLAN APP-SCHEMA FIXTURE...
# Migrates a copy of each fixture with PLAN (`realmctl migrate`), then asks
# `realmctl diff --schema APP-SCHEMA` what the app gets when it opens the result. APP-SCHEMA is
# the app's current schema with its schemaVersion (a schema document, as `realmctl schema
# --format json` prints it for a file the app wrote, or a plan). Exit 1 when a fixture would
# still need a migration (the plan misses one: Realm's "Migration is required", or the app's
# schema version is ahead of the plan's) or the plan does not apply; the fixtures are untouched.
plan=$1
schema=$2
shift 2
realmctl=${REALMCTL:-realmctl}
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
status=0
for fixture in "$@"; do
  copy="$work/$(basename "$fixture")"
  cp "$fixture" "$copy" || exit 2
  if ! "$realmctl" migrate --plan "$plan" "$copy" > "$work/migrate.out" 2>&1; then
    echo "$fixture: $plan does not apply:" >&2
    cat "$work/migrate.out" >&2
    status=1
    continue
  fi
  answer=$("$realmctl" diff "$copy" --schema "$schema" --format jsonl)
  case "$answer" in
    *'"verdict":"noChanges"'* | *'"verdict":"additiveOnly"'*)
      echo "$fixture: the app opens it after $plan" ;;
    *)
      echo "$fixture: a migration is missing from $plan:" >&2
      "$realmctl" diff "$copy" --schema "$schema" >&2
      status=1 ;;
  esac
done
exit $status
