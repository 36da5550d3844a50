"""Validates a JSON file against a JSON Schema: validate_json.py SCHEMA FILE."""
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    document = json.load(f)
jsonschema.Draft7Validator.check_schema(schema)
errors = list(jsonschema.Draft7Validator(schema).iter_errors(document))
for e in errors:
    print("%s: %s at %s" % (sys.argv[2], e.message, list(e.absolute_path)))
if errors:
    sys.exit(1)
print("%s: valid" % sys.argv[2])
