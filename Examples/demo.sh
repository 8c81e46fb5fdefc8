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

# For `diff`, whose exit status 1 means "the files differ" (or "a migration is needed").
run_diff() {
  run "$@" || [ $? -eq 1 ]
}

echo "== Inspecting a real Realm file (written by Realm Core 14)"
run open Examples/seed/tutorial.realm
run schema Examples/seed/tutorial.realm
run schema Examples/seed/tutorial.realm --format swift
run dump Examples/seed/tutorial.realm --format table --limit 5
run dump Examples/seed/tutorial.realm --format jsonl --limit 3
run dump Examples/seed/embedded.realm --format jsonl --limit 1

echo
echo "== An old file: file format 9 (Realm Core 5, 2019), which current SDKs cannot open"
run open Examples/seed/person-format9.realm
run dump Examples/seed/person-format9.realm --format table --limit 3
rm -f "$BUILD/person-format9.realm" "$BUILD/person-format9.realm.lock"
cp Examples/seed/person-format9.realm "$BUILD/person-format9.realm"
run upgrade "$BUILD/person-format9.realm" --dry-run
run upgrade "$BUILD/person-format9.realm"
run open "$BUILD/person-format9.realm" --check

echo
echo "== A synced realm (flexible Device Sync) after Device Sync: what sync held, then a local realm"
run open Examples/seed/synced.realm
rm -f "$BUILD/synced.realm" "$BUILD/synced.realm.lock"
cp Examples/seed/synced.realm "$BUILD/synced.realm"
run unsync "$BUILD/synced.realm" --dry-run
run unsync "$BUILD/synced.realm"
run open "$BUILD/synced.realm" --check

echo
echo "== Building a Realm file from reviewable text, then migrating it"
rm -f "$BUILD/people.realm" "$BUILD/people.realm.lock"
run create "$BUILD/people.realm" --schema Examples/people/schema.json --data Examples/people/data.jsonl
run open "$BUILD/people.realm" --check
cp "$BUILD/people.realm" "$BUILD/people-auto.realm"
run migrate --plan Examples/people/plan-v2-automatic.json "$BUILD/people-auto.realm"
run dump "$BUILD/people-auto.realm" --format table
run_diff diff "$BUILD/people.realm" "$BUILD/people-auto.realm"
run_diff diff "$BUILD/people.realm" --schema Examples/people/plan-v2.json --schema-version 1
run migrate --plan Examples/people/plan-v2.json "$BUILD/people.realm"
run dump "$BUILD/people.realm" --format table
run rename-property "$BUILD/people.realm" Person fullName name
run schema "$BUILD/people.realm"

echo
echo "== One worked example per kind of migration step (Examples/steps/)"
# Every example starts from the same v1 file, built from reviewable text: Person (id, firstName,
# lastName, age, email?, address -> Address), Address (street, city), Dog (name, owner -> Person).
STEPS=Examples/steps
COLUMNS=${COLUMNS:-132}  # wide enough for every column of the tables below
export COLUMNS
rm -f "$BUILD/steps-v1.realm" "$BUILD/steps-v1.realm.lock"
run create "$BUILD/steps-v1.realm" --schema "$STEPS/people/schema.json" --data "$STEPS/people/data.jsonl"
run dump "$BUILD/steps-v1.realm" --format table

# step NAME TITLE [FROM]: prints the heading of the step $STEPS/NAME and sets $file to a fresh
# copy of FROM (the v1 file by default) named after the step.
step() {
  name=$1
  file="$BUILD/step-$name.realm"
  printf '\n---- %s (%s/%s/plan.json)\n' "$2" "$STEPS" "$name"
  rm -f "$file" "$file.lock"
  cp "${3:-$BUILD/steps-v1.realm}" "$file"
}

# example NAME TITLE CLASS: migrates a fresh copy of the v1 file with $STEPS/NAME/plan.json and
# shows CLASS afterwards (or the schema when CLASS is '-'). Any failure stops the demo.
example() {
  class=$3
  step "$1" "$2"
  run migrate --plan "$STEPS/$name/plan.json" "$file"
  if [ "$class" = "-" ]; then
    run schema "$file"
  else
    run dump "$file" --format table --class "$class"
  fi
  "$REALMCTL" open "$file" --check >/dev/null
}

example rename-property "Rename a property: Person.age -> yearsSinceBirth" Person
example rename-class "Rename a class: Dog -> Pet (links follow)" Pet
example add-property "Add a required property with a default, and an optional one" Person
example remove-property "Remove a property: Person.email" Person
example transform "Transform: fullName from firstName + lastName (v2), age int -> string (v3)" Person
step split-name "Split fullName back into firstName and lastName (v3 -> v4, on the result above)" \
  "$BUILD/step-transform.realm"
run migrate --plan "$STEPS/split-name/plan.json" "$file"
run dump "$file" --format table --class Person
example delete-objects "Delete the objects matching a where filter (links to them become null)" Dog
run dump "$BUILD/step-delete-objects.realm" --format table --class Person
example delete-class "Delete a class: Dog" -
example exec "Run a script: Examples/steps/exec/fill_emails.py fills in missing emails" Person
example to-embedded "Convert Address to an embedded object (each has exactly one parent)" Person
example primary-key "Make Person.id the primary key (checked for duplicates)" Person
example optional-to-required "Make Person.email required (nulls become the default)" Person

# refused NAME TITLE: a migration realmctl must refuse (exit 65) leaving the file byte-for-byte
# as it was; the demo fails if it does not.
refused() {
  step "$1" "$2"
  printf '\n$ realmctl migrate --plan %s %s\n' "$STEPS/$name/plan.json" "$file"
  status=0
  "$REALMCTL" migrate --plan "$STEPS/$name/plan.json" "$file" || status=$?
  if [ "$status" -ne 65 ]; then
    echo "demo: expected exit status 65, got $status" >&2
    exit 1
  fi
  cmp -s "$file" "$BUILD/steps-v1.realm" || { echo "demo: a refused migration changed the file" >&2; exit 1; }
  echo "(exit status 65; the file is unchanged)"
}

refused primary-key-duplicates "Refused: Person.email as primary key (two people have no email)"
refused to-embedded-orphans "Refused: Dog made embedded (no object links to a Dog)"
refused exec-wrong-type "Refused: a script answers a value of the wrong type"

echo
echo "== Leaving Realm: model code for another SDK, and the data in SQLite (docs/sql-export.md)"
run schema Examples/seed/embedded.realm --format kotlin --class Contact
rm -f "$BUILD/notes.realm" "$BUILD/notes.realm.lock" "$BUILD/notes.sqlite"
run create "$BUILD/notes.realm" --schema Examples/export/schema.json --data Examples/export/data.jsonl
printf '\n$ realmctl dump %s --format sql > %s\n' "$BUILD/notes.realm" "$BUILD/notes.sql"
"$REALMCTL" dump "$BUILD/notes.realm" --format sql > "$BUILD/notes.sql"
if command -v sqlite3 >/dev/null 2>&1; then
  printf '$ sqlite3 -bail %s < %s\n' "$BUILD/notes.sqlite" "$BUILD/notes.sql"
  sqlite3 -bail "$BUILD/notes.sqlite" < "$BUILD/notes.sql"
  query="SELECT n.title, a.name AS author, p.name AS place, date(n.created) AS day FROM Note n LEFT JOIN Author a ON a._key = n.author LEFT JOIN Place p ON p._key = n.place"
  printf '$ sqlite3 -header %s "%s"\n' "$BUILD/notes.sqlite" "$query"
  sqlite3 -header "$BUILD/notes.sqlite" "$query"
  test -z "$(sqlite3 "$BUILD/notes.sqlite" 'PRAGMA foreign_key_check')" || { echo "demo: foreign keys do not hold" >&2; exit 1; }
else
  echo "(sqlite3 is not installed: the script is in $BUILD/notes.sql)"
fi

echo
echo "All examples ran."
