"""Every JSON answer of `tessera best --json` and `tessera solve --json` in the tests
goes through ``best_report``, which checks it against docs/best.schema.json."""

import json
from pathlib import Path

import jsonschema

SCHEMA = json.loads((Path(__file__).parents[1] / "docs" / "best.schema.json").read_text())


def best_report(output):
    """The JSON document printed by `best --json` or `solve --json`, schema-checked."""
    report = json.loads(output)
    jsonschema.validate(report, SCHEMA, cls=jsonschema.Draft202012Validator)
    return report
