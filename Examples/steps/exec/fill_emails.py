#!/usr/bin/env python3
"""realmctl exec step: gives every Person without an email one made from their name.

Reads one Person per line on stdin (canonical JSON, see docs/exec.md) and writes the new
version of each, in the same order, on stdout. Only the changed property is written back:
properties left out of an answer keep their values.
"""
import json
import sys

for line in sys.stdin:
    person = json.loads(line)
    email = f"{person['firstName']}.{person['lastName']}@example.org".lower()
    print(json.dumps({"$class": "Person", "$key": person["$key"], "email": email}), flush=True)
    print(f"fill_emails.py: {person['firstName']} {person['lastName']} -> {email}", file=sys.stderr)
