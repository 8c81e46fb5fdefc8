#!/usr/bin/env python3
"""`make bench`: times realmctl (release build) on real workloads and writes docs/benchmarks.md.

Every figure is the median of several whole-process runs; peak memory is the maximum resident
set size reported by /usr/bin/time. Inputs: the largest fixture (a real file written by Realm
Core), a 1,000,000-object Person file built with `realmctl create`, and the same objects in
file format 9 written by scripts/legacy_realm.py (`legacy_rows`).
"""
import json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/realmctl"
OUT = sys.argv[2] if len(sys.argv) > 2 else "docs/benchmarks.md"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
N = int(os.environ.get("BENCH_OBJECTS", "1000000"))
NOTES = """
## Reading the figures
- `dump` streams: its memory does not grow with the file (about 30 MiB for the 9 MB strings
  fixture, 43 MiB for the 25 MB million-object file, most of it the mapped file's resident pages).
- Adding and removing a property is committed in place: a new column leaf per cluster and the
  cluster nodes above it are written, every other column stays where it is, so the cost is of the
  order of copying the file once or less, and does not depend on how much data the other columns
  hold. Renames write only names and the version.
- Transforms, deletes, `exec` and other structural changes stream every object of the class
  through the migration into a new file (1 to 2 s per million objects here).
- Not measured here: Realm Core's own JSON export and an SDK app doing the same migrations.
  Realm Core cannot be built on this machine (its sources are not fully available offline), so
  the comparison the issues ask for is left to a machine that has it.
"""
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, setup=None, stdout=subprocess.DEVNULL):
    """Runs cmd RUNS times (after one warm-up); returns (median seconds, max peak KiB, last rc)."""
    walls, peaks, rc = [], [], 0
    for i in range(RUNS + 1):
        if setup:
            setup()
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=stdout, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
        rc = p.returncode
        if rc != 0:
            sys.stderr.write(p.stderr.decode(errors="replace"))
            raise SystemExit(f"benchmark command failed ({rc}): {' '.join(cmd)}")
        if i == 0:
            continue
        walls.append(wall)
        peaks.append(int(p.stderr.decode().strip().splitlines()[-1]))
    return statistics.median(walls), max(peaks), rc


def mb(n):
    return n / 1e6


def main():
    tmp = tempfile.mkdtemp(prefix="realmctl-bench-")
    rows = []
    try:
        # 1. dump --format jsonl on the largest fixture.
        fixtures = os.path.join(ROOT, "Tests", "Fixtures")
        cands = [os.path.join(fixtures, d, "before.realm") for d in os.listdir(fixtures)
                 if os.path.exists(os.path.join(fixtures, d, "before.realm"))]
        big = max(cands, key=os.path.getsize)
        out = subprocess.run([BIN, "dump", big, "--format", "jsonl"], capture_output=True, check=True).stdout
        objects = out.count(b"\n")
        t, peak, _ = timed([BIN, "dump", big, "--format", "jsonl"])
        rows.append(("dump --format jsonl", os.path.relpath(big, ROOT), f"{t:.3f} s",
                     f"{objects / t:,.0f} objects/s, {mb(os.path.getsize(big)) / t:,.1f} MB/s read, {mb(len(out)) / t:,.1f} MB/s written",
                     f"{peak / 1024:.1f} MiB"))

        # 2. A 1,000,000-object file, built with `create`.
        schema = os.path.join(tmp, "schema.json")
        data = os.path.join(tmp, "data.jsonl")
        with open(schema, "w") as f:
            json.dump({"schemaVersion": 1, "fileFormat": 24, "classes": [{"name": "Person", "embedded": False, "primaryKey": None,
                       "properties": [{"name": n, "type": t, "optional": False, "indexed": False}
                                      for n, t in (("firstName", "string"), ("lastName", "string"), ("age", "int"))]}]}, f)
        with open(data, "w") as f:
            for i in range(N):
                f.write('{"$class":"Person","$key":%d,"firstName":"First%d","lastName":"Last%d","age":%d}\n' % (i, i, i % 1000, i % 100))
        base = os.path.join(tmp, "people.realm")
        t, peak, _ = timed([BIN, "create", base, "--schema", schema, "--data", data],
                           setup=lambda: os.path.exists(base) and os.remove(base))
        size = os.path.getsize(base)
        rows.append(("create", f"{N:,} Person objects", f"{t:.3f} s", f"{N / t:,.0f} objects/s, file {mb(size):.1f} MB", f"{peak / 1024:.1f} MiB"))
        t, peak, _ = timed([BIN, "dump", base, "--format", "jsonl"])
        rows.append(("dump --format jsonl", f"{N:,} Person objects", f"{t:.3f} s", f"{N / t:,.0f} objects/s", f"{peak / 1024:.1f} MiB"))

        work = os.path.join(tmp, "work.realm")
        copy = lambda: (shutil.copyfile(base, work), os.path.exists(work + ".lock") and os.remove(work + ".lock"))
        t, peak, _ = timed(["cp", base, os.path.join(tmp, "cp.realm")])
        cp_time = t
        rows.append(("cp (reference)", f"{mb(size):.1f} MB file", f"{t:.3f} s", "", f"{peak / 1024:.1f} MiB"))

        plans = {
            "migrate: add property": {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
                "firstName": "string", "lastName": "string", "age": "int", "email": "string?"}}]},
            "migrate: remove property": {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
                "firstName": "string", "lastName": "string"}}]},
            "migrate: rename property": {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
                "firstName": "string", "lastName": "string", "yearsSinceBirth": "int"}}], "migrations": [
                {"version": 2, "steps": [{"op": "renameProperty", "class": "Person", "from": "age", "to": "yearsSinceBirth"}]}]},
            "migrate: transform fullName": {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
                "fullName": "string", "age": "int"}}], "migrations": [{"version": 2, "steps": [
                {"op": "transform", "class": "Person", "set": {"fullName": "old.firstName + ' ' + old.lastName"}}]}]},
            "migrate: where-filtered delete": {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
                "firstName": "string", "lastName": "string", "age": "int"}}], "migrations": [{"version": 2, "steps": [
                {"op": "deleteObjects", "class": "Person", "where": "age < 50"}]}]},
        }
        for name, plan in plans.items():
            p = os.path.join(tmp, "plan.json")
            with open(p, "w") as f:
                json.dump(plan, f)
            try:
                t, peak, _ = timed([BIN, "migrate", "--plan", p, work], setup=copy)
                rows.append((name, f"{N:,} objects", f"{t:.3f} s", f"{t / cp_time:.1f}× cp", f"{peak / 1024:.1f} MiB"))
            except SystemExit as e:
                rows.append((name, f"{N:,} objects", "failed", str(e), ""))
        rows += legacy_rows(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    lines = [
        "# Benchmarks",
        "",
        "Produced by `make bench` (release build, `scripts/bench.py`). Each time is the median of "
        f"{RUNS} whole-process runs after a warm-up; memory is the peak resident set size "
        "(`/usr/bin/time -f %M`), the largest of the runs.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"date {time.strftime('%Y-%m-%d')}.",
        "",
        "| workload | input | time | throughput | peak memory |",
        "|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += NOTES.splitlines()
    with open(os.path.join(ROOT, OUT), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def legacy_rows(tmp):
    """Files of formats 2-9 (issue 7): a format-9 Person file of LEGACY_OBJECTS objects written by
    scripts/legacy_realm.py (the layout of Realm Core 5), dumped, upgraded, and the upgraded
    (format 24, same objects) file dumped for the per-object comparison."""
    n = int(os.environ.get("LEGACY_OBJECTS", str(N)))
    legacy = os.path.join(tmp, "legacy.realm")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "legacy_realm.py"), "people", legacy, str(n)], check=True)
    size = os.path.getsize(legacy)
    rows = []
    t9, peak, _ = timed([BIN, "dump", legacy, "--format", "jsonl"])
    upgraded = os.path.join(tmp, "upgraded.realm")
    fresh = lambda: (shutil.copyfile(legacy, upgraded), os.path.exists(upgraded + ".lock") and os.remove(upgraded + ".lock"))
    tu, peak_u, _ = timed([BIN, "upgrade", upgraded], setup=fresh)
    t24, _, _ = timed([BIN, "dump", upgraded, "--format", "jsonl"])
    rows.append(("dump --format jsonl (file format 9)", f"{n:,} Person objects, {mb(size):.1f} MB",
                 f"{t9:.3f} s", f"{n / t9:,.0f} objects/s, {t9 / t24:.2f}× the time of format 24", f"{peak / 1024:.1f} MiB"))
    rows.append(("dump --format jsonl (the same, upgraded)", f"{n:,} Person objects, file format 24",
                 f"{t24:.3f} s", f"{n / t24:,.0f} objects/s", ""))
    rows.append(("upgrade (file format 9 -> 24)", f"{n:,} Person objects, {mb(size):.1f} MB",
                 f"{tu:.3f} s", f"{n / tu:,.0f} objects/s", f"{peak_u / 1024:.1f} MiB"))
    return rows


if __name__ == "__main__":
    main()
