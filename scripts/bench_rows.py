#!/usr/bin/env python3
"""Writes the input of the `Row` benchmark: a schema JSON and N objects as canonical JSON Lines.

Row {id int (primary key), name string, score double, created date, flag bool}: the file of
issue 9's table. Usage: bench_rows.py SCHEMA.json DATA.jsonl [N] [--link]  (N defaults to
1,000,000). With --link, Row also has `parent: Row?`, a link to the object whose key is half its
own (none for object 0): the query table's file (issue 18). Deterministic: the same arguments
always give the same bytes.
"""
import json, sys, time


def schema(link=False):
    props = [("id", "int"), ("name", "string"), ("score", "double"), ("created", "date"), ("flag", "bool")]
    properties = [{"name": n, "type": t, "optional": False, "indexed": False} for n, t in props]
    if link:
        properties.append({"name": "parent", "type": "object", "objectType": "Row", "optional": True, "indexed": False})
    return {"schemaVersion": 1, "fileFormat": 24, "classes": [{
        "name": "Row", "embedded": False, "primaryKey": "id", "properties": properties}]}


def number(d):
    """A double as realmctl's canonical dump writes it (shortest form, no '.0' for integers)."""
    r = repr(d)
    return r[:-2] if r.endswith(".0") else r


def main():
    link = "--link" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--link"]
    schema_path, data_path = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 1_000_000
    with open(schema_path, "w") as f:
        json.dump(schema(link), f)
    base = 1_700_000_000
    with open(data_path, "w") as f:
        out = []
        for i in range(n):
            t = time.gmtime(base + i * 37)
            created = time.strftime("%Y-%m-%dT%H:%M:%S", t) + ".%09dZ" % ((i * 7919) % 1000 * 1_000_000)
            parent = (',"parent":' + ('{"$ref":"Row","$key":%d}' % (i // 2) if i > 0 else "null")) if link else ""
            out.append('{"$class":"Row","$key":%d,"id":%d,"name":"name %d","score":%s,"created":{"$date":"%s"},"flag":%s%s}\n'
                       % (i, i, i, number(i * 0.25 + 0.5), created, "true" if i % 3 == 0 else "false", parent))
            if len(out) >= 65536:
                f.write("".join(out))
                out.clear()
        f.write("".join(out))


if __name__ == "__main__":
    main()
