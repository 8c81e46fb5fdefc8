#!/usr/bin/env python3
"""`make bench`: times realmctl (release build) on real workloads and writes docs/benchmarks.md.

Every workload runs as a whole process RUNS times after one warm-up run; the table gives the
minimum and the median wall time, the median CPU time (user + system, all threads) and the
largest peak resident set size of the counted runs (the kernel's own accounting, wait4).

The main input is issue 9's file: 1,000,000 objects of
`Row {id int (primary key), name string, score double, created date, flag bool}`, built with
`realmctl create` from JSON Lines that scripts/bench_rows.py writes.

Rows are independent functions in ROWS: a new row is a function taking the context and
returning table rows (see `Context.run`). Environment: BENCH_RUNS (default 5), BENCH_OBJECTS
(default 1,000,000), BENCH_ONLY (comma-separated row names: run only those).

The query table (issue 18) runs QUERIES on a file of BENCH_QUERY_OBJECTS (default 10,000,000)
`Row` objects with a `parent` link (scripts/bench_rows.py --link), BENCH_QUERY_RUNS times
(default 3) after a warm-up, beside Realm Core's own `oracle query` on the same file when
../shared/tools/realm-oracle is there. BENCH_QUERY_OBJECTS=0 leaves the table out; with
BENCH_ONLY=queries only the query table runs.

The studio table (issue 30) runs `realmctl studio` on the same file and times pages of the class
by the server's own clock (its Server-Timing header), then pages through the whole class watching
the server's memory. BENCH_ONLY=studio runs only it.
"""
import json, os, platform, pty, shutil, statistics, subprocess, sys, tempfile, threading, time

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/realmctl")
OUT = sys.argv[2] if len(sys.argv) > 2 else "docs/benchmarks.md"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
N = int(os.environ.get("BENCH_OBJECTS", "1000000"))
QUERY_N = int(os.environ.get("BENCH_QUERY_OBJECTS", "10000000"))
QUERY_RUNS = int(os.environ.get("BENCH_QUERY_RUNS", "3"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(os.path.dirname(ROOT), "shared", "tools", "realm-oracle", "bin", "oracle")
MIB = 1 << 20


class Context:
    """Shared inputs (built once) and the timing helper."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.schema = os.path.join(tmp, "rows.schema.json")
        self.data = os.path.join(tmp, "rows.jsonl")
        self.rows = os.path.join(tmp, "rows.realm")
        self.work = os.path.join(tmp, "work.realm")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_rows.py"), self.schema, self.data, str(N)], check=True)
        subprocess.run([BIN, "create", self.rows, "--schema", self.schema, "--data", self.data], check=True, stdout=subprocess.DEVNULL)
        self.size = os.path.getsize(self.rows)
        self.cp_median = None

    def fresh_copy(self):
        copy_synced(self.rows, self.work)

    def run(self, cmd, setup=None, stdout=subprocess.DEVNULL, terminal=False, ok=(0,)):
        """Runs cmd RUNS times after a warm-up; returns a dict of figures. With terminal=True
        standard error is a pseudo-terminal (so realmctl shows its progress), read as it comes.
        `ok`: the exit codes that mean success (`diff` exits 1 when the files differ)."""
        walls, cpus, peaks = [], [], []
        for i in range(RUNS + 1):
            if setup:
                setup()
            t0 = time.perf_counter()
            if terminal:
                master, slave = pty.openpty()
                # Drawn from the start (not after a second): the worst case for the work.
                env = dict(os.environ, REALMCTL_PROGRESS_DELAY="0")
                p = subprocess.Popen(cmd, stdout=stdout, stderr=slave, env=env)
                os.close(slave)
                chunks = []
                reader = threading.Thread(target=drain, args=(master, chunks))
                reader.start()
                _, status, usage = os.wait4(p.pid, 0)
                wall = time.perf_counter() - t0
                reader.join()
                os.close(master)
                err = b"".join(chunks)
                self.terminal_output = err
            else:
                p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
                err = p.stderr.read()
                _, status, usage = os.wait4(p.pid, 0)
                wall = time.perf_counter() - t0
            code = os.waitstatus_to_exitcode(status)
            if code not in ok:
                sys.stderr.write(err.decode(errors="replace"))
                raise SystemExit(f"benchmark command failed ({code}): {' '.join(cmd)}")
            if i == 0:
                continue
            walls.append(wall)
            cpus.append(usage.ru_utime + usage.ru_stime)
            peaks.append(usage.ru_maxrss * 1024)  # Linux reports KiB
        return {"min": min(walls), "median": statistics.median(walls), "cpu": statistics.median(cpus), "peak": max(peaks)}


def copy_synced(source, target):
    """A fresh copy of `source` at `target`, on disk before the command starts: the command's
    own fsync would otherwise also write the whole copy back (2-4 ms of a 20 ms migration, the
    setup's cost, not the command's), where a user's file has long been on disk."""
    shutil.copyfile(source, target)
    with open(target, "rb+") as f:
        os.fsync(f.fileno())
    if os.path.exists(target + ".lock"):
        os.remove(target + ".lock")


def drain(fd, chunks):
    """Reads a pseudo-terminal until its last writer has closed it."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the child has exited
            return
        if not data:
            return
        chunks.append(data)


def shows_progress(ctx, row):
    """Fails the benchmark when the terminal run printed no progress (it would measure nothing)."""
    if b"\r" not in getattr(ctx, "terminal_output", b""):
        raise SystemExit(f"{row}: no progress appeared on the terminal")


def plan_file(ctx, name, plan):
    path = os.path.join(ctx.tmp, name + ".plan.json")
    with open(path, "w") as f:
        json.dump(plan, f)
    return path


ROW_PROPS = {"id": "int", "name": "string", "score": "double", "created": "date", "flag": "bool"}


def row_schema(props, version=2):
    return {"schemaVersion": version, "schema": [{"name": "Row", "primaryKey": "id", "properties": props}]}


# Each row: (name, target seconds or None, memory rule, function(ctx) -> figures, input text)
def bench_cp(ctx):
    out = os.path.join(ctx.tmp, "cp.realm")
    f = ctx.run(["cp", ctx.rows, out])
    ctx.cp_median = f["median"]
    return f


def bench_dump(ctx):
    return ctx.run([BIN, "dump", ctx.rows, "--format", "jsonl"])


def bench_dump_sql(ctx):
    """`dump --format sql` (issue 11): the SQLite script of the same file; its target is about
    the time of the jsonl dump."""
    return ctx.run([BIN, "dump", ctx.rows, "--format", "sql"])


def encrypted_copy(ctx):
    """The same file encrypted with a fixed key (issue 8), made once."""
    key = os.path.join(ctx.tmp, "bench.key")
    enc = os.path.join(ctx.tmp, "encrypted.realm")
    if not os.path.exists(enc):
        with open(key, "w") as f:
            f.write(bytes(range(64)).hex() + "\n")
        subprocess.run([BIN, "encrypt", ctx.rows, "--output", enc, "--key-file", key], check=True,
                       stdout=subprocess.DEVNULL)
    return enc, key


def bench_encrypt(ctx):
    enc, key = encrypted_copy(ctx)
    out = os.path.join(ctx.tmp, "encrypt-out.realm")
    return ctx.run([BIN, "encrypt", ctx.rows, "--output", out, "--key-file", key],
                   setup=lambda: os.path.exists(out) and os.remove(out))


def bench_dump_encrypted(ctx):
    enc, key = encrypted_copy(ctx)
    return ctx.run([BIN, "dump", enc, "--format", "jsonl", "--key-file", key])


def bench_dump_terminal(ctx):
    f = ctx.run([BIN, "dump", ctx.rows, "--format", "jsonl"], terminal=True)
    shows_progress(ctx, "dump on a terminal")
    return f


def bench_transform_terminal(ctx):
    plan = row_schema({**ROW_PROPS, "summary": "string"})
    plan["migrations"] = [{"version": 2, "steps": [
        {"op": "transform", "class": "Row", "set": {"summary": "old.name + ' #' + string(old.id)"}}]}]
    p = plan_file(ctx, "transform-terminal", plan)
    f = ctx.run([BIN, "migrate", "--plan", p, ctx.work], setup=ctx.fresh_copy, terminal=True)
    shows_progress(ctx, "transform on a terminal")
    return f


def bench_create_terminal(ctx):
    out = os.path.join(ctx.tmp, "created-terminal.realm")
    f = ctx.run([BIN, "create", out, "--schema", ctx.schema, "--data", ctx.data],
                setup=lambda: os.path.exists(out) and os.remove(out), terminal=True)
    shows_progress(ctx, "create on a terminal")
    return f


def bench_create(ctx):
    out = os.path.join(ctx.tmp, "created.realm")
    return ctx.run([BIN, "create", out, "--schema", ctx.schema, "--data", ctx.data],
                   setup=lambda: os.path.exists(out) and os.remove(out))


def migrate(ctx, name, plan):
    p = plan_file(ctx, name, plan)
    return ctx.run([BIN, "migrate", "--plan", p, ctx.work], setup=ctx.fresh_copy)


def bench_add(ctx, run=migrate):
    return run(ctx, "add", row_schema({**ROW_PROPS, "note": "string?"}))


def bench_remove(ctx, run=migrate):
    return run(ctx, "remove", row_schema({k: v for k, v in ROW_PROPS.items() if k != "flag"}))


def bench_rename(ctx, run=migrate):
    props = {("label" if k == "name" else k): v for k, v in ROW_PROPS.items()}
    plan = row_schema(props)
    plan["migrations"] = [{"version": 2, "steps": [{"op": "renameProperty", "class": "Row", "from": "name", "to": "label"}]}]
    return run(ctx, "rename", plan)


def bench_transform(ctx, run=migrate):
    plan = row_schema({**ROW_PROPS, "summary": "string"})
    plan["migrations"] = [{"version": 2, "steps": [
        {"op": "transform", "class": "Row", "set": {"summary": "old.name + ' #' + string(old.id)"}}]}]
    return run(ctx, "transform", plan)


def bench_transform_where(ctx):
    plan = row_schema(ROW_PROPS)
    plan["migrations"] = [{"version": 2, "steps": [
        {"op": "transform", "class": "Row", "where": "flag == true", "set": {"score": "old.score * 2"}}]}]
    return migrate(ctx, "transform-where", plan)


def bench_delete(ctx):
    plan = row_schema(ROW_PROPS)
    plan["migrations"] = [{"version": 2, "steps": [{"op": "deleteObjects", "class": "Row", "where": "flag == true"}]}]
    return migrate(ctx, "delete", plan)


def edit_inputs(ctx):
    """Inputs of the issue 20 rows, written once: N new objects (ids N..2N-1, no $key: Realm's
    keys) and N/10 upserts of existing ids with a new score."""
    new, up = os.path.join(ctx.tmp, "insert-new.jsonl"), os.path.join(ctx.tmp, "upsert.jsonl")
    if not os.path.exists(new):
        with open(ctx.data) as f, open(new, "w") as n, open(up, "w") as u:
            for i, line in enumerate(f):
                o = json.loads(line)
                del o["$key"]
                if i < N // 10:
                    u.write(json.dumps({**o, "score": o["score"] + 1}, separators=(",", ":")) + "\n")
                o["id"] += N
                n.write(json.dumps(o, separators=(",", ":")) + "\n")
    return new, up


def bench_create_edit_input(ctx, which):
    """`create` of the objects an edit row writes (its bound): which 0 = insert's, 1 = upsert's."""
    data = edit_inputs(ctx)[which]
    out = os.path.join(ctx.tmp, "created-edit.realm")
    return ctx.run([BIN, "create", out, "--schema", ctx.schema, "--data", data],
                   setup=lambda: os.path.exists(out) and os.remove(out))


def bench_insert(ctx):
    new, _ = edit_inputs(ctx)
    return ctx.run([BIN, "insert", ctx.work, new], setup=ctx.fresh_copy)


def bench_upsert(ctx):
    _, up = edit_inputs(ctx)
    return ctx.run([BIN, "insert", ctx.work, up, "--upsert"], setup=ctx.fresh_copy)


def bench_update(ctx):
    return ctx.run([BIN, "update", ctx.work, "--class", "Row", "--set", "score = old.score * 2"], setup=ctx.fresh_copy)


def legacy_file(ctx):
    """The same objects in file format 9 (the layout of Realm Core 5, 2017-2019), written once
    by scripts/legacy_realm.py from the JSON Lines of the main input (issue 7)."""
    path = os.path.join(ctx.tmp, "rows-format9.realm")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "legacy_realm.py"), "rows", path, ctx.data], check=True)
    return path


def bench_dump_legacy(ctx):
    return ctx.run([BIN, "dump", legacy_file(ctx), "--format", "jsonl"])


def bench_upgrade_legacy(ctx):
    source = legacy_file(ctx)
    def fresh():
        copy_synced(source, ctx.work)
    return ctx.run([BIN, "upgrade", ctx.work], setup=fresh)


def format23_file(ctx):
    """The million-object file converted to file format 23 (Realm Core 13), once (issue 16)."""
    path = os.path.join(ctx.tmp, "rows-format23.realm")
    if not os.path.exists(path):
        subprocess.run([BIN, "convert", ctx.rows, "--file-format", "23", "--output", path], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def changed_copy(ctx):
    """A copy of the main input with 1% of the objects changed (the score of the first 1% of ids;
    the query language has no modulo), by a migration that keeps every object key, built once
    (issue 21)."""
    path = os.path.join(ctx.tmp, "rows-changed.realm")
    if not os.path.exists(path):
        copy_synced(ctx.rows, path)
        plan = row_schema(ROW_PROPS)
        plan["migrations"] = [{"version": 2, "steps": [
            {"op": "transform", "class": "Row", "where": f"id < {N // 100}", "set": {"score": "old.score + 1"}}]}]
        subprocess.run([BIN, "migrate", "--plan", plan_file(ctx, "changed", plan), path, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def migrate23(ctx, name, plan):
    """A migration of the format-23 copy, which keeps format 23 (in place where the plan allows)."""
    source = format23_file(ctx)
    p = plan_file(ctx, name, plan)
    return ctx.run([BIN, "migrate", "--plan", p, ctx.work], setup=lambda: copy_synced(source, ctx.work))


def format23(bench):
    """The migration of `bench` (bench_add, ...), run on the format-23 copy by migrate23."""
    return lambda ctx: bench(ctx, migrate23)


def bench_diff(ctx):
    """`diff` of the file and its 1%-changed copy (issue 21): aim at most the time of two
    dumps, flat memory (the two mapped files count in the peak)."""
    changed = changed_copy(ctx)
    return ctx.run([BIN, "diff", ctx.rows, changed, "--format", "jsonl"], ok=(1,))


def bench_diff_stat(ctx):
    changed = changed_copy(ctx)
    return ctx.run([BIN, "diff", ctx.rows, changed, "--stat"], ok=(1,))


ROWS = [
    # name, function, target seconds (issue 9), whether the file is mapped (memory target + file)
    ("cp of the file (floor)", bench_cp, None, False),
    ("dump --format jsonl", bench_dump, 0.45, True),
    ("dump --format sql (issue 11)", bench_dump_sql, None, True),
    ("dump --format jsonl, the same file encrypted (issue 8)", bench_dump_encrypted, None, True),
    ("encrypt --output (issue 8)", bench_encrypt, None, False),
    ("migrate: add an optional property", bench_add, 0.020, True),
    ("migrate: remove a property", bench_remove, 0.020, True),
    ("migrate: rename a property", bench_rename, 0.020, True),
    ("migrate: transform summary = old.name + ' #' + string(old.id)", bench_transform, 0.45, True),
    ("migrate: transform score where flag (recomputed column)", bench_transform_where, None, True),
    ("migrate: delete objects where flag (rewrite)", bench_delete, None, True),
    (f"create from {N:,} JSON lines", bench_create, 2.0, False),
    # Issue 16: the same migrations on the file converted to format 23 (kept by every write).
    ("format 23: migrate: add an optional property", format23(bench_add), 0.020, True),
    ("format 23: migrate: remove a property", format23(bench_remove), 0.020, True),
    ("format 23: migrate: rename a property", format23(bench_rename), 0.020, True),
    ("format 23: migrate: transform summary = old.name + ' #' + string(old.id)", format23(bench_transform), 0.45, True),
    # Issue 20: each at most as long as `create` of the same objects.
    (f"create of the insert's {N:,} new objects (its bound)", lambda ctx: bench_create_edit_input(ctx, 0), None, False),
    (f"insert {N:,} new objects (JSON Lines) into the file", bench_insert, None, True),
    (f"create of the upsert's {N // 10:,} objects (its bound)", lambda ctx: bench_create_edit_input(ctx, 1), None, False),
    (f"insert --upsert {N // 10:,} existing objects", bench_upsert, None, True),
    ("update: score = old.score * 2 for every object (column-wise)", bench_update, None, True),
    ("dump --format jsonl, the same objects in file format 9", bench_dump_legacy, None, True),
    ("diff of the file and a copy with 1% of the objects changed, --format jsonl (issue 21)", bench_diff, None, True),
    ("diff of the same, --stat (issue 21)", bench_diff_stat, None, True),
    ("upgrade file format 9 -> 24", bench_upgrade_legacy, None, True),
    # Issue 10: progress on a terminal must not slow the work (compare with the rows above).
    ("dump --format jsonl, standard error a terminal (progress)", bench_dump_terminal, None, True),
    ("migrate: transform, standard error a terminal (progress)", bench_transform_terminal, None, True),
    (f"create from {N:,} JSON lines, standard error a terminal (progress)", bench_create_terminal, None, False),
]


def query_in(n):
    """An IN of 100 primary keys spread over the file."""
    return "id IN {" + ", ".join(str(i * (n // 100) + 7) for i in range(100)) + "}"


# Issue 18's query table: (label, realmctl's arguments after FILE, Realm's --where or None,
# target in seconds for realmctl or None). realmctl writes every object it selects as JSON
# Lines (to /dev/null) unless the row counts or prints keys.
def queries(n):
    half = n // 2
    return [
        (f"id == {half} (primary key)", ["--where", f"id == {half}", "--format", "jsonl"], f"id == {half}", 0.020),
        (f"parent.id == {half // 2} (a link, then the primary key)", ["--where", f"parent.id == {half // 2}", "--format", "jsonl"],
         f"parent.id == {half // 2}", None),
        ("id IN {100 keys}", ["--where", query_in(n), "--format", "jsonl"], query_in(n), 0.020),
        ('name BEGINSWITH "name 99999"', ["--where", 'name BEGINSWITH "name 99999"', "--format", "jsonl"],
         'name BEGINSWITH "name 99999"', None),
        ('name CONTAINS[c] "99999"', ["--where", 'name CONTAINS[c] "99999"', "--format", "jsonl"], 'name CONTAINS[c] "99999"', None),
        ("score > 0.99 SORT(score DESC) LIMIT(10)", ["--where", "score > 0.99 SORT(score DESC) LIMIT(10)", "--format", "jsonl"],
         "score > 0.99 SORT(score DESC) LIMIT(10)", None),
        ("score > 0.99 DISTINCT(flag)", ["--where", "score > 0.99 DISTINCT(flag)", "--format", "jsonl"],
         "score > 0.99 DISTINCT(flag)", None),
        ("score > 0.99 --count", ["--where", "score > 0.99", "--count"], "score > 0.99", None),
        ("score > 0.99 --keys-only", ["--where", "score > 0.99", "--keys-only"], "score > 0.99", None),
        ("score > 0.99, every object written", ["--where", "score > 0.99", "--format", "jsonl"], None, None),
        ("dump --count (no query)", ["--count"], None, None),
    ]


def query_file(tmp):
    """The query table's file: QUERY_N `Row` objects with a `parent` link, built once."""
    path = os.path.join(tmp, "q.realm")
    if not os.path.exists(path):
        schema = os.path.join(tmp, "q.schema.json")
        data = os.path.join(tmp, "q.jsonl")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_rows.py"), schema, data, str(QUERY_N), "--link"], check=True)
        subprocess.run([BIN, "create", path, "--schema", schema, "--data", data, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        os.remove(data)
    return path


def query_table(tmp):
    """Issue 18's query table: realmctl's and Realm's figures for QUERIES on a large file."""
    path = query_file(tmp)
    size = os.path.getsize(path)
    ctx = Context.__new__(Context)
    global RUNS
    saved, RUNS = RUNS, QUERY_RUNS
    lines = []
    try:
        for label, args, realm_where, target in queries(QUERY_N):
            ours = ctx.run([BIN, "dump", path, "--class", "Row"] + args)
            theirs = None
            if realm_where and os.path.exists(ORACLE):
                theirs = ctx.run([ORACLE, "query", path, "--class", "Row", "--where", realm_where])
            met = ""
            if target is not None:
                met = ("met" if ours["median"] <= target else "not met") + f" (≤ {target * 1000:.0f} ms)"
            lines.append("| " + " | ".join([
                label, f"{ours['median']:.3f} s", f"{ours['peak'] / MIB:.1f} MiB",
                f"{theirs['median']:.3f} s" if theirs else "", f"{theirs['peak'] / MIB:.1f} MiB" if theirs else "", met]) + " |")
            print(lines[-1], flush=True)
    finally:
        RUNS = saved
    return size, lines


class StudioServer:
    """`realmctl studio FILE --read-only` on a free port, with the cookie its token buys; requests
    on one kept-alive connection, timed by the server (its `Server-Timing` header: the time from
    the request read to the answer ready, without the network)."""

    def __init__(self, path):
        import http.client, re
        self.process = subprocess.Popen([BIN, "studio", path, "--port", "0", "--no-open", "--read-only"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        text = self.process.stdout.readline() + self.process.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", text)
        if not m:
            raise SystemExit(f"realmctl studio printed no address: {text!r}")
        self.port, token = int(m.group(1)), m.group(2)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        self.connection.request("GET", f"/?token={token}")
        answer = self.connection.getresponse()
        answer.read()
        self.cookie = answer.getheader("Set-Cookie").split(";")[0]

    def get(self, target):
        """(server milliseconds, JSON answer) of one GET."""
        self.connection.request("GET", target, headers={"Cookie": self.cookie, "Host": f"127.0.0.1:{self.port}"})
        answer = self.connection.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise SystemExit(f"studio answered {answer.status} to {target}: {body[:300]!r}")
        timing = answer.getheader("Server-Timing") or ""
        ms = float(timing.split("dur=")[1]) if "dur=" in timing else float("nan")
        return ms, json.loads(body)

    def memory(self):
        """The server's resident memory now (anonymous, file-backed) and its peak, in bytes."""
        figures = {}
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("RssAnon", "RssFile", "VmHWM"):
                    figures[key] = int(value.split()[0]) * 1024
        return figures

    def stop(self):
        self.connection.close()
        self.process.send_signal(2)
        self.process.wait(timeout=30)


def studio_table(tmp):
    """Issue 30: `realmctl studio` on the query table's file. The first page of the class and a
    filtered page (server time, median of STUDIO_RUNS), a page far into a filter's matches once
    they are counted, and the server's memory while it pages through the whole class by key
    ranges (pages of 1,000 objects)."""
    from urllib.parse import quote
    path = query_file(tmp)
    runs = int(os.environ.get("STUDIO_RUNS", "21"))
    server = StudioServer(path)
    base = "/api/files/0/classes/Row/objects"
    lines = []
    try:
        def timed(label, target, target_ms=None, warm=1):
            for _ in range(warm):
                server.get(target)
            times = sorted(server.get(target)[0] for _ in range(runs))
            median = times[len(times) // 2]
            met = "" if target_ms is None else ("met" if median <= target_ms else "not met") + f" (≤ {target_ms} ms)"
            lines.append(f"| {label} | {median:.2f} ms | {times[0]:.2f} ms | {times[-1]:.2f} ms | {met} |")
            print(lines[-1], flush=True)

        timed("first page of Row (100 objects)", f"{base}?offset=0&limit=100", 50)
        timed("a page at position 5,000,000 (one path down the tree)", f"{base}?offset=5000000&limit=100")
        where = 'name BEGINSWITH "name 9"'
        timed(f"first filtered page: {where}", f"{base}?offset=0&limit=100&where={quote(where)}", 50)
        timed("a filtered page after a key: flag == true, after key 7,000,000", f"{base}?after=7000000&limit=100&where={quote('flag == true')}", 50)
        count_ms, count = server.get(f"/api/files/0/classes/Row/count?where={quote(where)}")
        lines.append(f"| count of {where} ({count['count']:,} matches; keeps a key of every 256th) | {count_ms:.0f} ms | | | |")
        print(lines[-1], flush=True)
        timed(f"{where}: the page at match 1,000,000 (after the count)", f"{base}?offset=1000000&limit=100&where={quote(where)}", 50)

        # Paging through the whole class by key ranges, as the page's table would to the end.
        start = server.memory()
        samples = []
        after, pages, objects, slowest = -1, 0, 0, 0.0
        t0 = time.perf_counter()
        while True:
            ms, page = server.get(f"{base}?after={after}&limit=1000")
            slowest = max(slowest, ms)
            objects += len(page["objects"])
            pages += 1
            if pages % 1000 == 0:
                samples.append(server.memory()["RssAnon"])
            if not page["hasMore"]:
                break
            after = int(page["objects"][-1]["key"])
        wall = time.perf_counter() - t0
        end = server.memory()
        mib = lambda b: f"{b / MIB:.1f} MiB"
        flat = max(samples + [end["RssAnon"]]) - min(samples + [end["RssAnon"]]) if samples else 0
        lines.append(f"| paging through all {objects:,} objects by key ranges ({pages:,} pages of 1,000, {wall:.0f} s, slowest page "
                     f"{slowest:.1f} ms): anonymous memory {mib(start['RssAnon'])} at the start, {mib(end['RssAnon'])} at the end, "
                     f"varying by {mib(flat)} over the walk; peak resident {mib(end['VmHWM'])} (the mapped file's pages count in it) "
                     f"| | | | {'met' if flat < 64 * MIB else 'not met'} (flat) |")
        print(lines[-1], flush=True)
    finally:
        server.stop()
    return lines


def verdict(fig, target, mapped, size):
    """Whether the row meets issue 9's targets: time, and peak memory <= 64 MiB (+ the mapped file)."""
    if target is None:
        return ""
    limit = 64 * MIB + (size if mapped else 0)
    ok_time = fig["median"] <= target
    ok_mem = fig["peak"] <= limit
    return ("met" if ok_time and ok_mem else "not met") + f" (≤ {target * 1000:.0f} ms, ≤ {limit / MIB:.0f} MiB)"


def main():
    only = {s.strip() for s in os.environ.get("BENCH_ONLY", "").split(",") if s.strip()}
    tmp = tempfile.mkdtemp(prefix="realmctl-bench-")
    lines_out = []
    try:
        ctx = Context(tmp) if not only or only - {"queries", "studio"} else None
        for name, fn, target, mapped in ROWS:
            if ctx is None or (only and not any(o in name for o in only)):
                continue
            fig = fn(ctx)
            lines_out.append("| " + " | ".join([
                name, f"{fig['min']:.3f} s", f"{fig['median']:.3f} s", f"{fig['cpu']:.3f} s",
                f"{fig['peak'] / MIB:.1f} MiB", verdict(fig, target, mapped, ctx.size)]) + " |")
            print(lines_out[-1], flush=True)
        size = ctx.size if ctx else 0
        query_size, query_lines = (0, [])
        if QUERY_N > 0 and (not only or "queries" in only):
            query_size, query_lines = query_table(tmp)
        studio_lines = []
        if QUERY_N > 0 and (not only or "studio" in only):
            studio_lines = studio_table(tmp)
            query_size = os.path.getsize(query_file(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    text = [
        "# Benchmarks",
        "",
        "Produced by `make bench` (release build, `scripts/bench.py`; the input file comes from",
        "`scripts/bench_rows.py` through `realmctl create`). Each workload ran as a whole process",
        f"{RUNS} times after one warm-up run: wall time minimum and median, median CPU time (user +",
        "system of all threads) and the largest peak resident set size of those runs. Rows that",
        "change the file in place start each run from a fresh copy of it, written to disk first.",
        "",
        f"Machine: {cpu or platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"{platform.system()} {platform.release()}; date {time.strftime('%Y-%m-%d')}.",
        f"Input: {N:,} objects of `Row {{id int (primary key), name string, score double, created date,",
        f"flag bool}}`, a {size / MIB:.1f} MiB file (the mapped file counts in the peak memory of the",
        "commands that read it).",
        "",
        "| workload | wall min | wall median | CPU median | peak memory | issue 9 target |",
        "|---|---|---|---|---|---|",
    ] + lines_out
    if query_lines:
        text += [
            "",
            "## Queries (issue 18)",
            "",
            f"{QUERY_N:,} `Row` objects with a `parent` link (`bench_rows.py --link`), a {query_size / MIB:.1f} MiB file.",
            f"realmctl: `dump FILE --class Row` with the arguments shown, {QUERY_RUNS} runs after a warm-up (median",
            "wall time, largest peak memory); Realm: Realm Core 14.14's `oracle query` on the same file (it prints",
            "the object keys of the result).",
            "",
            "| query | realmctl | realmctl peak | Realm | Realm peak | issue 18 target |",
            "|---|---|---|---|---|---|",
        ] + query_lines
    if studio_lines:
        text += [
            "",
            "## realmctl studio (issue 30)",
            "",
            f"`realmctl studio` on the query table's file ({QUERY_N:,} `Row` objects, {query_size / MIB:.1f} MiB), read-only.",
            "Server time: the server's own `Server-Timing` figure (from the request read to the answer ready), median, minimum",
            "and maximum of STUDIO_RUNS requests (default 21) after a warm-up, on one kept-alive connection.",
            "",
            "| request | median | min | max | issue 30 target |",
            "|---|---|---|---|---|",
        ] + studio_lines
    notes_path = os.path.join(ROOT, "docs", "benchmarks-notes.md")
    if os.path.exists(notes_path):
        with open(notes_path) as f:
            text += [""] + f.read().rstrip("\n").splitlines()
    with open(os.path.join(ROOT, OUT), "w") as f:
        f.write("\n".join(text) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
