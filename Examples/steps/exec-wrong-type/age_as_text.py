#!/usr/bin/env python3
"""A broken realmctl exec step, for the demo: it answers `age` as text, but Person.age is an
int property at this point of the plan, so realmctl refuses the answer and writes nothing."""
import json
import sys

for line in sys.stdin:
    person = json.loads(line)
    person["age"] = f"{person['age']} years"
    print(json.dumps(person))
