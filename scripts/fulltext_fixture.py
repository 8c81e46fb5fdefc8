#!/usr/bin/env python3
"""Writes Tests/Fixtures/fulltext: objects with full-text indexed strings, the files Realm Core
builds from them, and Realm Core's answers to TEXT queries on those files.

Usage: scripts/fulltext_fixture.py [OUT_DIR] (default Tests/Fixtures/fulltext; needs
../shared/tools/realm-oracle). Deterministic: the same objects every time.

- schema.json: `Note {id int (primary key), title string (indexed), body string? (full-text),
  author Author?}` and `Author {name string (full-text), notes Note[]}`.
- data.jsonl: the objects. Note bodies mix upper and lower case, accents (folded by Realm's
  tokenizer), Latin-1 letters it keeps (å æ ð ø þ ß), punctuation, characters it skips (CJK,
  emoji, Greek), 64-byte-plus words, and words of 4 and 8 bytes held by several objects (where
  Realm's lookup answers longer words too).
- before-24.realm: Realm Core 14.14's `oracle create` of them (file format 24);
  before-23.realm: Realm Core 13.26's (file format 23, as a Core-13 SDK app writes it).
- answers.jsonl: one line per query, {"class", "where", "keys24", "keys23"}: the object keys
  (in Realm's order) that Realm Core 14.14 returns on before-24.realm and Realm Core 13.26 on
  before-23.realm, or {"error": message} where Realm refuses the query.
"""
import json, os, random, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLES = os.path.join(os.path.dirname(ROOT), "shared", "tools", "realm-oracle")
CORE14 = os.path.join(ORACLES, "bin", "oracle")
CORE13 = os.path.join(ORACLES, "core13", "oracle")

SCHEMA = {"schemaVersion": 3, "classes": [
    {"name": "Author", "embedded": False, "primaryKey": None, "properties": [
        {"name": "name", "type": "string", "optional": False, "indexed": "full-text"},
        {"name": "notes", "type": "list", "objectType": "Note", "optional": False, "indexed": False}]},
    {"name": "Note", "embedded": False, "primaryKey": "id", "properties": [
        {"name": "id", "type": "int", "optional": False, "indexed": True},
        {"name": "title", "type": "string", "optional": False, "indexed": True},
        {"name": "body", "type": "string", "optional": True, "indexed": "full-text"},
        {"name": "author", "type": "object", "objectType": "Author", "optional": True, "indexed": False}]}]}

WORDS = ("Café café CAFE crème Brûlée brulee Straße STRASSE Ærøskøbing aerø naïve NAIVE façade Résumé resume "
         "Zoë jalapeño Ðóttir þorn Øre Åland ÿes x×y × ÷ Ĳssel Ελλάδα 東京 emoji😀word full-text e-mail "
         "abcd abcdefgh wxyz wxyzabcd mnop mnopqrst lorem ipsum dolor sit amet the The THE a an of 42 2024 "
         "x1 v2 intelligent interest internal international interior intern").split()
LONG = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2


def objects():
    rng = random.Random(27)
    authors = ["Zoë Ærø", "José Núñez", "Ðóra Þórsdóttir", "Ann Lee", "STRAßE Müller", "李 Wei"]
    out = []
    for i in range(240):
        n = rng.randint(0, 9)
        words = [rng.choice(WORDS) for _ in range(n)]
        if i % 7 == 0:
            words.append("abcd")
        if i % 11 == 0:
            words.append("mnopqrst")
        if i % 37 == 0:
            words.append(LONG)
        sep = rng.choice([" ", ", ", ". ", " - ", "\n", "\t", "/", "!"])
        body = sep.join(words)
        if i % 23 == 5:
            body = None
        out.append({"$class": "Note", "$key": i, "id": 1000 + i, "title": f"Note {i}", "body": body,
                    "author": {"$ref": "Author", "$key": i % len(authors)} if i % 5 else None})
    for k, name in enumerate(authors):
        out.append({"$class": "Author", "$key": k, "name": name,
                    "notes": [{"$ref": "Note", "$key": j} for j in range(k, 240, 40)]})
    return out


SEARCHES = ["café", "CAFE", "cafe", "caf*", "crème", "creme", "brulee", "strasse", "straße", "stra*", "straß*",
            "ærøskøbing", "aerø", "ærø*", "naive", "NAÏVE", "facade", "resume", "zoe", "jalapeno", "ðottir",
            "þorn", "øre", "aland", "åland", "es", "xy", "x", "×", "÷", "ssel", "emoji", "word", "full", "text",
            "e", "mail", "abcd", "abcdefgh", "abcdefghijk", "abcdzz", "abcd*", "abcde*", "wxyz", "wxyzab", "mnop",
            "mnopqrst", "mnopqrstuv", "lorem", "lorem ipsum", "lorem -ipsum", "-lorem", "-lorem -ipsum", "the",
            "the -a", "a", "an*", "int*", "inte*", "inter*", "interna*", "42", "4*", "2024", "x1", "v*",
            "pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoc",
            "pneumono*", "", " ", "-", "*", "full-text", "a -a", "a* -a", "x!", "東京", "ελλάδα"]


def queries():
    out = []
    for s in SEARCHES:
        out.append(("Note", f'body TEXT "{s}"'))
    out += [("Note", 'body TEXT "lorem" SORT(id DESC)'), ("Note", 'body TEXT "the" LIMIT(3)'),
            ("Note", 'body TEXT "café" OR id < 1003'), ("Note", 'NOT body TEXT "the"'),
            ("Note", 'body TEXT "the" AND title BEGINSWITH "Note 1"'), ("Note", 'author.name TEXT "zoe"'),
            ("Note", 'author.name TEXT "þ*"'), ("Author", 'notes.body TEXT "abcd"'), ("Author", 'name TEXT "müller"'),
            ("Author", 'name TEXT "strasse"'), ("Author", 'name TEXT "núñez -jose"'), ("Note", 'title TEXT "note"'),
            ("Note", 'body TEXT 5'), ("Note", 'body TEXT NULL'), ("Note", 'body TEXT title')]
    return out


def ask(oracle, path, cls, where):
    """Realm's answer, asked on a copy (opening a file creates its lock file beside it)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copyfile(path, copy)
        r = subprocess.run([oracle, "query", copy, "--class", cls, "--where", where], capture_output=True, text=True)
    if r.returncode == 0:
        return {"keys": [int(x) for x in r.stdout.split()]}
    return {"error": (r.stdout + r.stderr).strip()}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Tests", "Fixtures", "fulltext")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "schema.json"), "w") as f:
        json.dump(SCHEMA, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(out, "data.jsonl"), "w") as f:
        for o in objects():
            f.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")
    for name, oracle in (("before-24.realm", CORE14), ("before-23.realm", CORE13)):
        path = os.path.join(out, name)
        if os.path.exists(path):
            os.remove(path)
        subprocess.run([oracle, "create", "--schema", os.path.join(out, "schema.json"), "--version", "3",
                        "--data", os.path.join(out, "data.jsonl"), path], check=True)
    with open(os.path.join(out, "answers.jsonl"), "w") as f:
        for cls, where in queries():
            line = {"class": cls, "where": where}
            for suffix, oracle in (("24", CORE14), ("23", CORE13)):
                a = ask(oracle, os.path.join(out, f"before-{suffix}.realm"), cls, where)
                line["keys" + suffix] = a.get("keys")
                if "error" in a:
                    line["error" + suffix] = a["error"]
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    for name in os.listdir(out):
        if name.endswith((".lock", ".note", ".management")):
            p = os.path.join(out, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


if __name__ == "__main__":
    main()
