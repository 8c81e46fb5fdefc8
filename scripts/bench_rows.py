#!/usr/bin/env python3
"""Writes the input of the `Row` benchmark: a schema JSON and N objects as canonical JSON Lines.

Row {id int (primary key), name string, score double, created date, flag bool}: the file of
issue 9's table. Usage: bench_rows.py SCHEMA.json DATA.jsonl [N]  (N defaults to 1,000,000).
Deterministic: the same N always gives the same bytes.
"""
import json, sys, time


def schema():
    props = [("id", "int"), ("name", "string"), ("score", "double"), ("created", "date"), ("flag", "bool")]
    return {"schemaVersion": 1, "fileFormat": 24, "classes": [{
        "name": "Row", "embedded": False, "primaryKey": "id",
        "properties": [{"name": n, "type": t, "optional": False, "indexed": False} for n, t in props]}]}


def number(d):
    """A double as realmctl's canonical dump writes it (shortest form, no '.0' for integers)."""
    r = repr(d)
    return r[:-2] if r.endswith(".0") else r


def main():
    schema_path, data_path = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000
    with open(schema_path, "w") as f:
        json.dump(schema(), f)
    base = 1_700_000_000
    with open(data_path, "w") as f:
        out = []
        for i in range(n):
            t = time.gmtime(base + i * 37)
            created = time.strftime("%Y-%m-%dT%H:%M:%S", t) + ".%09dZ" % ((i * 7919) % 1000 * 1_000_000)
            out.append('{"$class":"Row","$key":%d,"id":%d,"name":"name %d","score":%s,"created":{"$date":"%s"},"flag":%s}\n'
                       % (i, i, i, number(i * 0.25 + 0.5), created, "true" if i % 3 == 0 else "false"))
            if len(out) >= 65536:
                f.write("".join(out))
                out.clear()
        f.write("".join(out))


if __name__ == "__main__":
    main()
