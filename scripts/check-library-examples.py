#!/usr/bin/env python3
"""Checks the programs of Examples/library (run by scripts/check-library-docs.sh).

Usage: check-library-examples.py BIN_DIR

1. Each module's "Getting started" article (Sources/<M>/<M>.docc/GettingStarted.md) shows its
   program word for word and what it prints today; so does README.md for two of them.
2. What the programs print is what the file holds, by Realm's answer: Realm Core itself
   (`../shared/tools/realm-oracle/bin/oracle`: `schema`, `dump`, `query`). Without ../shared
   (REALMCTL_SHARED= or a fresh clone) that part is reported skipped, and the programs are
   compared with what `realmctl dump --where` prints instead (when .build/debug/realmctl exists).
Run from the repository root. Exit status 1 on any difference.
"""
import json
import os
import re
import subprocess
import sys

FILE = "Examples/seed/tutorial.realm"
# module -> program of its Getting started article
PROGRAMS = {
    "RealmModel": "compare-schemas",
    "RealmFormat": "read-objects",
    "RealmStorage": "file-summary",
    "RealmJSON": "schema-json",
    "RealmQuery": "query-objects",
    "RealmExport": "export-objects",
    "RealmRewrite": "convert-copy",
    "RealmMigration": "migrate-copy",
    "RealmEdit": "edit-copy",
    "RealmDiff": "diff-copies",
}
# The app schema of compare-schemas, for Realm's own verdict (`oracle open`).
COMPARE_SCHEMA = {"schemaVersion": 0, "classes": [{"name": "User", "properties": [
    {"name": "name", "type": "string", "indexed": True},
    {"name": "age", "type": "int", "optional": True},
    {"name": "email", "type": "string", "optional": True}]}]}
# The queries of query-objects and export-objects.
OLDEST_QUERY = "age > 60 SORT(age DESC) LIMIT(5)"
GRACE_QUERY = "name BEGINSWITH 'Grace' SORT(age ASC)"

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def blocks(article):
    """The fenced code blocks of a Markdown file: [(language, text)]."""
    return re.findall(r"^```(\w*)\n(.*?)^```$", article, re.S | re.M)


def swift_text(value):
    """How Swift prints a RealmValue of this JSON scalar (the values of tutorial.realm)."""
    if isinstance(value, str):
        return 'string("%s")' % value
    return "int(%d)" % value


def shared_oracle():
    shared = os.environ.get("REALMCTL_SHARED")
    if shared is None:
        shared = os.path.join("..", "shared")
    oracle = os.path.join(shared, "tools", "realm-oracle", "bin", "oracle") if shared else ""
    return oracle if oracle and os.access(oracle, os.X_OK) else None


def main():
    bin_dir = sys.argv[1]
    outputs = {p: run([os.path.join(bin_dir, p)]) for p in PROGRAMS.values()}

    # 1. The articles show the programs and their output.
    for module, program in PROGRAMS.items():
        article = open(f"Sources/{module}/{module}.docc/GettingStarted.md", encoding="utf-8").read()
        code = open(f"Examples/library/Sources/{program}/main.swift", encoding="utf-8").read()
        found = blocks(article)
        check(("swift", code.rstrip() + "\n") in found, f"{module} article: its program is not {program}/main.swift")
        shown = f"$ swift run --package-path Examples/library {program}\n{outputs[program]}"
        check(("", shown.rstrip() + "\n") in found, f"{module} article: the output shown is not what {program} prints")

    # The README's section "Using the libraries from Swift" shows two of them.
    readme = blocks(open("README.md", encoding="utf-8").read())
    for program in ("export-objects", "migrate-copy"):
        shown = f"$ swift run --package-path Examples/library {program}\n{outputs[program]}"
        check(("", shown.rstrip() + "\n") in readme, f"README: the output shown is not what {program} prints")
    code = open("Examples/library/Sources/export-objects/main.swift", encoding="utf-8").read()
    check(("swift", code.rstrip() + "\n") in readme, "README: its program is not export-objects/main.swift")

    # 2. The output is what the file holds.
    oracle = shared_oracle()
    if oracle:
        schema = json.loads(run([oracle, "schema", FILE]))
        objects = [json.loads(line) for line in run([oracle, "dump", FILE]).splitlines() if line.strip()]
        oldest = [int(k) for k in run([oracle, "query", FILE, "--class", "User", "--where", OLDEST_QUERY]).split()]
        graces = [int(k) for k in run([oracle, "query", FILE, "--class", "User", "--where", GRACE_QUERY]).split()]
        source = "Realm Core (oracle)"
    else:
        print("check-library-examples: skipped the comparison with Realm: ../shared is not present "
              "(the Realm oracle is not committed here)")
        realmctl = ".build/debug/realmctl"
        if not os.access(realmctl, os.X_OK):
            print("check-library-examples: skipped the comparison with realmctl: .build/debug/realmctl is not built")
            return report()
        def dump(query):
            text = run([realmctl, "dump", FILE, "--class", "User", "--where", query])
            return [json.loads(line) for line in text.splitlines()]
        objects = dump("TRUEPREDICATE")
        oldest = [o["$key"] for o in dump(OLDEST_QUERY)]
        graces = [o["$key"] for o in dump(GRACE_QUERY)]
        schema = None
        source = "realmctl dump"
    users = {o["$key"]: o for o in objects if o["$class"] == "User"}

    # file-summary
    summary = outputs["file-summary"]
    check(f"class User: {len(users)} objects\n" in summary, f"file-summary: the object count is not {source}'s")
    if schema:
        check(summary.startswith(f"file format: {schema['fileFormat']} "), "file-summary: wrong file format")
        check(f"schema version {schema['schemaVersion']}," in summary, "file-summary: wrong schema version")

    # read-objects: the first three objects, every property in schema order
    names = [p for p in users[0] if not p.startswith("$")]
    expected = f"User: {', '.join(names)}\n" + "".join(
        f"  {k}: {', '.join(swift_text(users[k][n]) for n in names)}\n" for k in range(3))
    check(outputs["read-objects"] == expected, f"read-objects: not the objects {source} reads")

    # query-objects: Realm's keys, in Realm's order, with the objects' values
    expected = "".join(f"{k} {' '.join(f'{n}={swift_text(users[k][n])}' for n in names)}\n" for k in oldest)
    check(len(oldest) == 5 and outputs["query-objects"] == expected,
          f"query-objects: not the objects {source} returns for {OLDEST_QUERY!r}")

    # export-objects: the schema, then the selected objects as JSON Lines
    text, _, lines = outputs["export-objects"].partition("\n\n{")
    exported = [json.loads(line) for line in ("{" + lines).splitlines() if line.strip()]
    check(graces and exported == [users[k] for k in graces],
          f"export-objects: not the objects {source} returns for {GRACE_QUERY!r}")
    if schema:
        for cls in schema["classes"] if "classes" in schema else []:
            check(f"\n{cls['name']}\n" in text, f"export-objects: class {cls['name']} missing from the schema")

    # migrate-copy: the schema the plan asks for
    migrated = outputs["migrate-copy"]
    check("schema version 1," in migrated and re.search(r"\n  fullName +string\n  age +int\n  email +string\?\n", migrated),
          "migrate-copy: the migrated copy does not have the plan's schema")
    check_new_programs(outputs, users, schema, oracle, source)
    print(f"check-library-examples: compared with {source}")
    return report()


def check_new_programs(outputs, users, schema, oracle, source):
    """compare-schemas, schema-json, convert-copy, edit-copy and diff-copies against the file."""
    # compare-schemas: each change that needs a migration is one Realm names when an app opens
    # the file with that schema.
    compared = outputs["compare-schemas"].splitlines()
    check(len(compared) == 3, "compare-schemas: not three changes")
    if oracle:
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            app = os.path.join(folder, "app.json")
            with open(app, "w", encoding="utf-8") as f:
                json.dump(COMPARE_SCHEMA, f)
            verdict = subprocess.run([oracle, "open", FILE, "--schema", app, "--version", "0"],
                                     capture_output=True, text=True).stdout
        for line in compared:
            needs, _, message = line.partition(": ")
            check((message in verdict) == (needs == "needs a migration"),
                  f"compare-schemas: Realm does not agree on {message!r}")

    # schema-json: the file's classes and properties, as Realm reads them.
    schema_text, _, rest = outputs["schema-json"].partition("\n\n")
    if schema:
        ours = json.loads(schema_text)
        names = lambda s: [(c["name"], [p["name"] for p in c["properties"]]) for c in s["classes"]]
        check(names(ours) == names(schema), "schema-json: not the classes and properties Realm reads")
    check(rest.splitlines() == ['name: "Ada Lovelace"', "age: 36", '{"$class":"User","$key":7,"name":"Ada Lovelace","age":36}'],
          "schema-json: the line is not decoded and written again in the canonical form")

    # convert-copy: every user kept, the copy in format 22.
    converted = outputs["convert-copy"]
    check(f"converted from format 24 to 22: User {len(users)}\n" in converted, "convert-copy: wrong conversion")
    check(converted.endswith("the copy opens as format 22\n"), "convert-copy: the copy is not in format 22")

    # edit-copy: the counts follow from the objects of the file.
    graces = [u for u in users.values() if u["name"].startswith("Grace")]
    ages = [u["age"] + (1 if u["name"].startswith("Grace") else 0) for u in users.values()] + [36, 85]
    children = sum(1 for a in ages if a < 10)
    expected = [
        f"2 inserted, 0 updated, 0 deleted (write path append): {len(users) + 2} users",
        f"0 inserted, {len(graces)} updated, 0 deleted (write path columns): {len(users) + 2} users",
        f"0 inserted, 0 updated, {children} deleted (write path rewrite): {len(users) + 2 - children} users",
    ]
    check(outputs["edit-copy"].splitlines() == expected, f"edit-copy: the counts are not those of {source}'s objects")

    # diff-copies: the renamed users, each once, by key.
    radias = sorted(k for k, u in users.items() if u["name"] == "Radia Allen")
    diffed = outputs["diff-copies"]
    for k in radias:
        check(f"User($key: {k})" in diffed, f"diff-copies: user {k} is not reported")
    check(diffed.count("Ada Lovelace") == len(radias), "diff-copies: not one change per renamed user")


def report():
    for f in failures:
        print(f"check-library-examples: FAILED: {f}", file=sys.stderr)
    if not failures:
        print(f"check-library-examples: the {len(PROGRAMS)} programs and their articles agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
