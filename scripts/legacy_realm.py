#!/usr/bin/env python3
"""Writes Realm files in file format 9 (the layout of Realm Core 4-5, 2017-2019), for the
benchmarks and robustness tests of realmctl's reader of old files.

The layout is the one of shared/docs/realm-legacy-format.md: a 10-slot group top array, 2-slot
table tops `[spec, columns]`, one B+-tree per column (leaves of at most 1000 elements, compact
inner nodes), the Object Store tables `metadata` and `pk`, lists of primitives as subtables
with one `!ARRAY_VALUE` column, links as `row + 1`, link lists, backlink columns, enumerated
strings, nullable integers (`ArrayIntNull`), timestamps as two B+-trees, short / medium / big
string leaves. Check a file with shared/tools/pyrealm/read_legacy.py (--tables, --dump).

    python3 scripts/legacy_realm.py people OUT.realm [N]      # Person {firstName, lastName, age}, N objects
    python3 scripts/legacy_realm.py rows OUT.realm DATA.jsonl # the Row objects of scripts/bench_rows.py
    python3 scripts/legacy_realm.py sample OUT.realm          # a small file with every column kind
"""
import calendar
import json
import struct
import sys
import time

MAX_LEAF = 1000
INT, BOOL, STRING, STRING_ENUM, BINARY, TABLE, MIXED, OLD_DATETIME, TIMESTAMP, FLOAT, DOUBLE = range(11)
LINK, LINKLIST, BACKLINK = 12, 13, 14
INDEXED, NULLABLE = 1, 16


class Writer:
    """Appends nodes after the 24-byte header; refs are file offsets."""

    def __init__(self):
        self.buf = bytearray(24)

    def node(self, flags, size, payload):
        ref = len(self.buf)
        self.buf += b"AAAA" + bytes([flags]) + size.to_bytes(3, "big") + payload
        self.buf += bytes(-len(self.buf) % 8)
        return ref

    def ints(self, values, has_refs=False, inner=False, context=False):
        """An integer array of the smallest width holding every value (1/2/4 unsigned, 8-64 signed)."""
        width = 0
        for v in values:
            while not fits(v, width):
                width = 1 if width == 0 else width * 2
        code = {0: 0, 1: 1, 2: 2, 4: 3, 8: 4, 16: 5, 32: 6, 64: 7}[width]
        flags = (0x80 if inner else 0) | (0x40 if has_refs else 0) | (0x20 if context else 0) | code
        if width < 8:
            packed = 0
            for i, v in enumerate(values):
                packed |= v << (i * width)
            payload = packed.to_bytes((len(values) * width + 7) // 8, "little")
        else:
            fmt = {8: "b", 16: "h", 32: "i", 64: "q"}[width]
            payload = struct.pack("<%d%s" % (len(values), fmt), *values)
        return self.node(flags, len(values), payload)

    def blob(self, data):
        return self.node(0x10, len(data), bytes(data))  # wtype ignore

    def short_strings(self, values, nullable=False):
        """ArrayString: fixed slots whose last byte is `width - 1 - length` (width = null)."""
        longest = max([len(v) for v in values if v is not None] + [-1])
        width = 0
        while width < longest + 1 or (nullable and None in values and width == 0):
            width = 1 if width == 0 else width * 2
        payload = bytearray()
        for v in values:
            if width == 0:
                continue
            if v is None:
                payload += bytes(width - 1) + bytes([width])
            else:
                payload += v + bytes(width - 1 - len(v)) + bytes([width - 1 - len(v)])
        code = {0: 0, 1: 1, 2: 2, 4: 3, 8: 4, 16: 5, 32: 6, 64: 7}[width]
        return self.node(0x08 | code, len(values), bytes(payload))

    def strings_leaf(self, values, nullable):
        longest = max([len(v) for v in values if v is not None] + [0])
        if longest <= 15:
            return self.short_strings(values, nullable)
        if longest <= 63:  # medium: [offsets (with terminating zeros), blob, (nulls: 1 = present)]
            blob, ends = bytearray(), []
            for v in values:
                blob += (v or b"") + b"\0"
                ends.append(len(blob))
            refs = [self.ints(ends), self.blob(blob)]
            if nullable:
                refs.append(self.ints([0 if v is None else 1 for v in values]))
            return self.ints(refs, has_refs=True)
        return self.ints([0 if v is None else self.blob(v + b"\0") for v in values], has_refs=True, context=True)

    def binary_leaf(self, values):
        blob, ends = bytearray(), []
        for v in values:
            blob += v or b""
            ends.append(len(blob))
        return self.ints([self.ints(ends), self.blob(blob), self.ints([1 if v is None else 0 for v in values])], has_refs=True)

    def tree(self, values, leaf):
        """A B+-tree of `values`: leaves of MAX_LEAF elements made by `leaf`, compact inner nodes."""
        if len(values) <= MAX_LEAF:
            return leaf(values)
        level = [(leaf(values[i:i + MAX_LEAF]), min(MAX_LEAF, len(values) - i)) for i in range(0, len(values), MAX_LEAF)]
        per_child = MAX_LEAF
        while len(level) > 1:
            parents = []
            for i in range(0, len(level), MAX_LEAF):
                group = level[i:i + MAX_LEAF]
                total = sum(n for _, n in group)
                parents.append((self.ints([per_child * 2 + 1] + [r for r, _ in group] + [total * 2 + 1], has_refs=True, inner=True), total))
            level = parents
            per_child *= MAX_LEAF
        return level[0][0]

    def int_tree(self, values, nullable=False):
        def leaf(vals):
            if not nullable:
                return self.ints(vals)
            present = set(v for v in vals if v is not None)
            marker = 0
            while marker in present:
                marker += 1
            return self.ints([marker] + [marker if v is None else v for v in vals])
        return self.tree(values, leaf)


def fits(v, width):
    if width == 0:
        return v == 0
    if width < 8:
        return 0 <= v < (1 << width)
    return -(1 << (width - 1)) <= v < (1 << (width - 1))


class Column:
    def __init__(self, name, type, values, nullable=False, indexed=False, target=None, element=None, keys=None):
        self.name, self.type, self.values = name, type, values
        self.attr = (NULLABLE if nullable else 0) | (INDEXED if indexed else 0)
        self.target, self.element, self.keys = target, element, keys


def write_column(w, c, tables):
    t, v, nullable = c.type, c.values, bool(c.attr & NULLABLE)
    if t in (INT, BOOL):
        return w.int_tree([None if x is None else int(x) for x in v], nullable)
    if t == FLOAT or t == DOUBLE:
        fmt, null = ("<f", struct.pack("<I", 0x7FC000AA)) if t == FLOAT else ("<d", struct.pack("<Q", 0x7FF80000000000AA))
        width = 4 if t == FLOAT else 8
        # BasicArray<T>: width type "multiply", width code 3 (4 bytes) or 4 (8 bytes).
        return w.tree(v, lambda vals: w.node(0x08 | (3 if width == 4 else 4), len(vals),
                                             b"".join(null if x is None else struct.pack(fmt, x) for x in vals)))
    if t == STRING:
        return w.tree([None if x is None else x.encode() for x in v], lambda vals: w.strings_leaf(vals, nullable))
    if t == STRING_ENUM:
        return w.int_tree([c.keys.index(x) for x in v])
    if t == BINARY:
        return w.tree(v, w.binary_leaf)
    if t == TIMESTAMP:
        seconds = w.int_tree([None if x is None else x[0] for x in v], True)
        nanos = w.int_tree([0 if x is None else x[1] for x in v])
        return w.ints([seconds, nanos], has_refs=True)
    if t == LINK:
        return w.int_tree([0 if x is None else x + 1 for x in v])
    if t == LINKLIST:
        return w.tree([w.int_tree(x) if x else 0 for x in v], lambda vals: w.ints(vals, has_refs=True))
    if t == TABLE:
        sub = Column("!ARRAY_VALUE", c.element[0], None, nullable=c.element[1])
        def cell(items):
            if not items:
                return 0
            sub.values = items
            return w.ints([write_column(w, sub, tables)], has_refs=True)
        return w.tree([cell(x) for x in v], lambda vals: w.ints(vals, has_refs=True))
    if t == BACKLINK:
        def cell(origins):
            if not origins:
                return 0
            if len(origins) == 1:
                return origins[0] * 2 + 1
            return w.int_tree(origins)
        return w.tree([cell(x) for x in v], lambda vals: w.ints(vals, has_refs=True))
    raise ValueError("column type %d" % t)


def write_file(path, tables, schema_version=None):
    """tables: list of (name, [Column]); links name their target by table name."""
    w = Writer()
    names = [n for n, _ in tables]
    index = {n: i for i, n in enumerate(names)}
    # Backlink columns: one per link column, in the target table, after its public columns.
    backlinks = {n: [] for n in names}
    for ti, (n, cols) in enumerate(tables):
        for ci, c in enumerate(cols):
            if c.type in (LINK, LINKLIST):
                rows = len(tables[index[c.target]][1][0].values)
                origins = [[] for _ in range(rows)]
                for r, x in enumerate(c.values):
                    for target in ([] if x is None else [x] if c.type == LINK else x):
                        origins[target].append(r)
                bl = Column(None, BACKLINK, origins)
                bl.origin = (ti, ci)
                backlinks[c.target].append(bl)
    table_refs = []
    for n, cols in tables:
        allcols = cols + backlinks[n]
        refs, subspecs, enumkeys = [], [], []
        for c in allcols:
            refs.append(write_column(w, c, tables))
            if c.attr & INDEXED:  # an (empty) search index node: has-refs with the context flag
                refs.append(w.ints([w.ints([], context=False)], has_refs=True, context=True))
            if c.type in (LINK, LINKLIST):
                subspecs.append(index[c.target] * 2 + 1)
            elif c.type == BACKLINK:
                subspecs += [c.origin[0] * 2 + 1, c.origin[1] * 2 + 1]
            elif c.type == TABLE:
                et, en = c.element
                subspecs.append(w.ints([w.ints([et]), w.short_strings([b"!ARRAY_VALUE"]), w.ints([NULLABLE if en else 0])], has_refs=True))
            elif c.type == STRING_ENUM:
                enumkeys.append(w.tree([k.encode() for k in c.keys], lambda vals: w.strings_leaf(vals, bool(c.attr & NULLABLE))))
        spec = [w.ints([c.type for c in allcols]), w.short_strings([c.name.encode() for c in cols]),
                w.ints([c.attr for c in allcols])]
        if subspecs or enumkeys:
            spec.append(w.ints(subspecs, has_refs=True) if subspecs else 0)
        if enumkeys:
            spec.append(w.ints(enumkeys, has_refs=True))
        table_refs.append(w.ints([w.ints(spec, has_refs=True), w.ints(refs, has_refs=True)], has_refs=True))
    names_ref = w.short_strings([n.encode() for n in names])
    tables_ref = w.ints(table_refs, has_refs=True)
    free = [w.ints([]) for _ in range(3)]  # positions, lengths, versions: empty
    # Top: names, tables, logical size (the file size), free lists (empty), transaction 1,
    # history type none, no history, history schema version 0. Its own size depends on the
    # width of the logical size, so it is written until the size it states is its end.
    pos, size = len(w.buf), len(w.buf) + 96
    while True:
        top = w.ints([names_ref, tables_ref, size * 2 + 1, *free, 3, 1, 0, 1], has_refs=True)
        if len(w.buf) == size:
            break
        size = len(w.buf)
        del w.buf[pos:]
    w.buf[0:24] = struct.pack("<QQ", top, 0) + b"T-DB" + bytes([9, 0, 0, 0])
    with open(path, "wb") as f:
        f.write(w.buf)


def object_store(classes, schema_version, primary_keys=()):
    """`pk` and `metadata` first, then the `class_` tables (as the Object Store wrote them)."""
    pk = [Column("pk_table", STRING, [c for c, _ in primary_keys], indexed=True),
          Column("pk_property", STRING, [p for _, p in primary_keys])]
    return [("pk", pk), ("metadata", [Column("version", INT, [schema_version])])] + [
        ("class_" + n, cols) for n, cols in classes]


def people(n):
    first = ["Ada", "Grace", "Niklaus", "Edsger", "Barbara", "Ken", "王", "Zoë"]
    cols = [Column("firstName", STRING, ["%s%d" % (first[i % 8], i) for i in range(n)]),
            Column("lastName", STRING, ["Last%d" % (i % 1000) for i in range(n)]),
            Column("age", INT, [i % 100 for i in range(n)])]
    return object_store([("Person", cols)], 1)


def rows(data_path):
    """`Row {id int (primary key), name string, score double, created date, flag bool}` from the
    canonical JSON Lines scripts/bench_rows.py writes (the benchmark's input)."""
    ids, names, scores, created, flags = [], [], [], [], []
    with open(data_path) as f:
        for line in f:
            o = json.loads(line)
            ids.append(o["id"])
            names.append(o["name"])
            scores.append(float(o["score"]))
            date = o["created"]["$date"]  # YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ
            seconds = calendar.timegm(time.strptime(date[:19], "%Y-%m-%dT%H:%M:%S"))
            created.append((seconds, int(date[20:29])))
            flags.append(o["flag"])
    cols = [Column("id", INT, ids, indexed=True), Column("name", STRING, names), Column("score", DOUBLE, scores),
            Column("created", TIMESTAMP, created), Column("flag", BOOL, flags)]
    return object_store([("Row", cols)], 1, [("Row", "id")])


def sample():
    """Every column kind in a few hundred rows (multi-leaf trees in `Item`)."""
    n = 1200
    items = [
        Column("id", INT, list(range(n)), indexed=True),
        Column("flag", BOOL, [i % 3 == 0 for i in range(n)]),
        Column("optFlag", BOOL, [None if i % 5 == 0 else i % 2 == 0 for i in range(n)], nullable=True),
        Column("count", INT, [(-1) ** i * i * 1000003 for i in range(n)]),
        Column("optCount", INT, [None if i % 7 == 0 else i for i in range(n)], nullable=True),
        Column("ratio", FLOAT, [i / 8 for i in range(n)]),
        Column("optRatio", DOUBLE, [None if i % 4 == 0 else i * 1.5 for i in range(n)], nullable=True),
        Column("name", STRING, ["item %d" % i for i in range(n)]),
        Column("note", STRING, [None if i % 6 == 0 else ("x" * (i % 90)) for i in range(n)], nullable=True),
        Column("color", STRING_ENUM, [["red", "green", "blue"][i % 3] for i in range(n)], keys=["red", "green", "blue"]),
        Column("data", BINARY, [bytes([i % 256]) * (i % 5) for i in range(n)]),
        Column("when", TIMESTAMP, [None if i % 9 == 0 else (1500000000 + i, i * 1000) for i in range(n)], nullable=True),
        Column("owner", LINK, [None if i % 4 == 0 else i % 10 for i in range(n)], target="class_Owner"),
        Column("tags", TABLE, [["t%d" % j for j in range(i % 4)] for i in range(n)], element=(STRING, False)),
        Column("scores", TABLE, [[j if j % 2 else None for j in range(i % 3)] for i in range(n)], element=(INT, True)),
    ]
    owners = [
        Column("name", STRING, ["owner %d" % i for i in range(10)]),
        Column("items", LINKLIST, [[j for j in range(i, n, 97)] for i in range(10)], target="class_Item"),
    ]
    return object_store([("Item", items), ("Owner", owners)], 2, [("Item", "id")])


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "people":
        write_file(out, people(int(sys.argv[3]) if len(sys.argv) > 3 else 100000))
    elif kind == "rows":
        write_file(out, rows(sys.argv[3]))
    elif kind == "sample":
        write_file(out, sample())
    else:
        raise SystemExit(__doc__)
