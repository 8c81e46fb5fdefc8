#!/usr/bin/env python3
"""Checks that a refactoring changed nothing a user sees.

Records what one realmctl binary prints for the demo and for `open`, `open --json`,
`open --check`, `schema` (every format) and `dump` (every format) of every Realm file of the
fixtures (Tests/Fixtures, and ../shared's fixtures and wild files when present), and for every
query of the fixtures (Tests/Fixtures/queries/queries.jsonl, Realm's own queries, plus
DISTINCT, LIMIT, --offset and --limit over every scalar property of the query fixtures: see
QUERY_EXTRAS) as `dump --where` in jsonl and json, `--keys-only` and `--count`, then compares
another binary's output with that record, byte for byte (stdout, stderr and exit status).

  scripts/same-output.py record BIN DIR     # before the change
  scripts/same-output.py compare BIN DIR    # after it: lists every difference, exit 1 if any

The demo's timings ("in 43 ms") are not compared. Encrypted files are read with the key file beside them (NAME.key) when there is one. Paths are
printed relative to the repository, so a record taken in one checkout compares in another.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("REALMCTL_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))

SCHEMA_FORMATS = ["text", "json", "swift", "kotlin", "java", "javascript", "typescript", "dart", "csharp"]
DUMP_FORMATS = ["jsonl", "json", "table", "sql"]


def realm_files():
    roots = [os.path.join(ROOT, "Tests", "Fixtures"), os.path.join(ROOT, "Examples")]
    if os.path.isdir(SHARED):
        roots += [os.path.join(SHARED, "fixtures"), os.path.join(SHARED, "wild", "files")]
    found = []
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in names:
                if name.endswith(".realm") and "/build/" not in directory + "/":
                    found.append(os.path.join(directory, name))
    return sorted(found)


def key_options(path):
    key = path[: -len(".realm")] + ".key"
    return ["--key-file", key] if os.path.exists(key) else []


def commands(path):
    key = key_options(path)
    yield ["open", path] + key
    yield ["open", path, "--json"] + key
    yield ["open", path, "--check"] + key
    for fmt in SCHEMA_FORMATS:
        yield ["schema", path, "--format", fmt] + key
    for fmt in DUMP_FORMATS:
        yield ["dump", path, "--format", fmt] + key


QUERIES = os.path.join(ROOT, "Tests", "Fixtures", "queries", "queries.jsonl")
QUERY_MODES = [["--format", "jsonl"], ["--format", "json"], ["--keys-only"], ["--count"]]


def query_extras():
    """(file, class, query, extra dump options): DISTINCT over every scalar property of the
    query fixtures' classes (whole, then LIMIT, then a SORT after it), filtered dumps with
    --offset and --limit, and DISTINCT through a link."""
    extras = []
    for name in ("alltypes", "strings", "embedded"):
        with open(os.path.join(ROOT, "Tests", "Fixtures", name, "schema.json")) as f:
            schema = json.load(f)
        realm = os.path.join("Tests", "Fixtures", name, "before.realm")
        for cls in schema["classes"]:
            if cls["embedded"]:
                continue
            scalars = [p["name"] for p in cls["properties"]
                       if p["type"] not in ("list", "set", "dictionary", "object", "linkingObjects")]
            for p in scalars:
                extras.append((realm, cls["name"], f"TRUEPREDICATE DISTINCT({p})", []))
                extras.append((realm, cls["name"], f"TRUEPREDICATE DISTINCT({p}) LIMIT(4)", []))
                extras.append((realm, cls["name"], f"TRUEPREDICATE DISTINCT({p}) LIMIT(4) SORT({scalars[0]} DESC)", []))
                extras.append((realm, cls["name"], f"TRUEPREDICATE DISTINCT({p}, {scalars[-1]}) LIMIT(7)", []))
    extras += [
        (os.path.join("Tests", "Fixtures", "alltypes", "before.realm"), "AllTypes", "int_req > 0", ["--offset", "3", "--limit", "10"]),
        (os.path.join("Tests", "Fixtures", "alltypes", "before.realm"), "AllTypes", "int_req > 0", ["--limit", "0"]),
        (os.path.join("Tests", "Fixtures", "alltypes", "before.realm"), "AllTypes", "bool_opt == nil", ["--offset", "5"]),
        (os.path.join("Tests", "Fixtures", "alltypes", "before.realm"), "AllTypes", "TRUEPREDICATE DISTINCT(target.name) LIMIT(3)", []),
        (os.path.join("Tests", "Fixtures", "strings", "before.realm"), "Strings", "len > 3", ["--offset", "1000", "--limit", "2000"]),
        (os.path.join("Tests", "Fixtures", "strings", "before.realm"), "Strings", "s CONTAINS 'a'", []),
    ]
    return extras


def query_commands():
    """The dumps of every query of the fixtures (see the module's documentation)."""
    found = []
    if os.path.exists(QUERIES):
        with open(QUERIES) as f:
            for line in f:
                q = json.loads(line)
                found.append((os.path.join("Tests", "Fixtures", q["file"]), q["class"], q["where"], []))
    found += query_extras()
    for realm, cls, where, options in found:
        for mode in QUERY_MODES:
            yield ["dump", os.path.join(ROOT, realm), "--class", cls, "--where", where] + mode + options


def run(binary, arguments):
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    result = subprocess.run([binary] + arguments, capture_output=True, cwd=ROOT, env=env, timeout=600)
    digest = hashlib.sha256()
    for part in (result.stdout, result.stderr, str(result.returncode).encode()):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest(), result


def relative(arguments):
    return " ".join(os.path.relpath(a, ROOT) if os.path.isabs(a) else a for a in arguments)


def snapshot(binary):
    jobs = [args for path in realm_files() for args in commands(path)] + list(query_commands())
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        digests = list(pool.map(lambda a: run(binary, a)[0], jobs))
    lines = {relative(a): d for a, d in zip(jobs, digests)}
    demo = subprocess.run(
        ["sh", "Examples/demo.sh", binary], capture_output=True, cwd=ROOT,
        env=dict(os.environ, NO_COLOR="1", COLUMNS="100"))
    text = without_timings(demo.stdout + demo.stderr) + str(demo.returncode).encode()
    lines["make demo"] = hashlib.sha256(text).hexdigest()
    return lines, demo.stdout + demo.stderr


def without_timings(output):
    """The demo's reports say how long each write took ("in 43 ms", "in 1.2 s"): not compared."""
    return re.sub(rb"\bin [0-9]+(\.[0-9]+)? (ms|s)\b", b"in <time>", output)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("record", "compare"):
        sys.exit(__doc__)
    mode, binary, directory = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    lines, demo = snapshot(binary)
    if mode == "record":
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "digests.txt"), "w") as f:
            for name in sorted(lines):
                f.write(f"{lines[name]}  {name}\n")
        with open(os.path.join(directory, "demo.txt"), "wb") as f:
            f.write(demo)
        print(f"recorded {len(lines)} outputs in {directory}")
        return
    recorded = {}
    with open(os.path.join(directory, "digests.txt")) as f:
        for line in f:
            digest, name = line.rstrip("\n").split("  ", 1)
            recorded[name] = digest
    differ = sorted(n for n in recorded.keys() | lines.keys() if recorded.get(n) != lines.get(n))
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(lines)} outputs compared, {len(differ)} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
