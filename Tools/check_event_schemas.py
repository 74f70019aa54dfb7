#!/usr/bin/env python3
"""Check the event payload schemas in Schemas/events/ (Python standard library + jsonschema).

For every `<type>.v<N>.schema.json`: it must pass the draft 2020-12 metaschema, carry the house
fields ($schema, $id, title, description, x-reel-event-type, x-reel-schema-version) consistent
with its file name, accept the valid example payloads below and reject the invalid ones. Every
event type Reel writes must have a schema at its current version.

`pattern` is evaluated with ECMA-262 semantics, as JSON Schema specifies: `$` matches only at the
very end of the string. Python's `re` also lets `$` match before a final newline, so the stock
validator would accept e.g. "de\\n"; the line of a schema says when that happens.

Prints one line per schema; exits 1 if anything failed.
"""

import json
import pathlib
import re
import sys

import jsonschema
from jsonschema import Draft202012Validator, ValidationError, validators

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "Schemas" / "events"
METASCHEMA = "https://json-schema.org/draft/2020-12/schema"
ID_BASE = "https://reel.example/schemas/events/"

# DomainEvent.currentVersions
CURRENT_VERSIONS = {
    "account-opened": 1, "favorite-added": 1, "favorite-imported": 1, "favorite-removed": 1, "profile-name-changed": 1,
    "profile-photo-changed": 1, "profile-photo-removed": 1, "language-switched": 1, "account-deleted": 1,
    "account-moved-out": 1, "account-moved-in": 1,
}

SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
PHOTO = {"sha256": SHA, "contentType": "image/png", "bytes": 1234, "width": 640, "height": 480}


def photo(**changes):
    p = dict(PHOTO)
    for k, v in changes.items():
        if v is None:
            p.pop(k)
        else:
            p[k] = v
    return {"photo": p}


MEDIA_VALID = [
    {"mediaType": "movie", "id": 550}, {"mediaType": "tv", "id": 1399},
    {"mediaType": "movie", "id": 1}, {"mediaType": "tv", "id": 2147483647},
]
MEDIA_INVALID = [
    {"mediaType": "movie", "id": 0}, {"mediaType": "movie", "id": -5}, {"mediaType": "tv", "id": 2147483648},
    {"mediaType": "film", "id": 550}, {"mediaType": "Movie", "id": 550}, {"mediaType": "movie", "id": "550"},
    {"mediaType": "movie", "id": 5.5}, {"mediaType": "movie", "id": True}, {"mediaType": "movie"}, {"id": 550},
    {"mediaType": "movie", "id": 550, "title": "Fight Club"}, [], None,
]
EMPTY_VALID = [{}]
EMPTY_INVALID = [{"reason": "x"}, {"photo": None}, [], None, ""]

EXAMPLES = {
    "account-opened": (
        [{"handle": "default"}, {"handle": "a"}, {"handle": "0"}, {"handle": "ann.lee_2-x"}, {"handle": "a" * 64}],
        [{"handle": ""}, {"handle": "a" * 65}, {"handle": "Ann"}, {"handle": ".ann"}, {"handle": "-ann"},
         {"handle": "_ann"}, {"handle": "ann lee"}, {"handle": "anné"}, {"handle": "ann\n"}, {"handle": 7},
         {}, {"handle": "ann", "extra": 1}],
    ),
    "favorite-added": (MEDIA_VALID, MEDIA_INVALID),
    "favorite-removed": (MEDIA_VALID, MEDIA_INVALID),
    "favorite-imported": (
        [dict(m, addedAt="2019-03-02T00:00:00.000000Z", source=s) for m in MEDIA_VALID for s in ["reel", "letterboxd"]]
        + [{"mediaType": "tv", "id": 1399, "addedAt": "2024-01-02T03:04:05.123456Z", "source": "trakt"}],
        [dict(m, addedAt="2019-03-02T00:00:00.000000Z", source="imdb") for m in MEDIA_INVALID if isinstance(m, dict) and "title" not in m]
        + [{"mediaType": "movie", "id": 550, "addedAt": "2019-03-02", "source": "imdb"},
           {"mediaType": "movie", "id": 550, "addedAt": "2019-03-02T00:00:00Z", "source": "imdb"},
           {"mediaType": "movie", "id": 550, "addedAt": "2019-03-02T00:00:00.000000Z", "source": "netflix"},
           {"mediaType": "movie", "id": 550, "addedAt": "2019-03-02T00:00:00.000000Z"},
           {"mediaType": "movie", "id": 550, "source": "reel"},
           {"mediaType": "movie", "id": 550, "addedAt": "2019-03-02T00:00:00.000000Z", "source": "reel", "extra": 1}],
    ),
    "profile-name-changed": (
        [{"name": "Ann"}, {"name": "x"}, {"name": "x" * 100}, {"name": "Zoë Saldaña"}, {"name": "  padded  "},
         {"name": "名前"}, {"name": "🎬 fan"}, {"name": "a\u00a0b"}],
        [{"name": ""}, {"name": "x" * 101}, {"name": "Ann\n"}, {"name": "A\nnn"}, {"name": "\tAnn"},
         {"name": "Ann\u0000"}, {"name": "Ann\u007f"}, {"name": "Ann\u0085"}, {"name": "Ann\u009f"}, {"name": "Ann\u001b[31m"},
         {"name": " "}, {"name": "   "}, {"name": "\u3000\u00a0"}, {"name": 5}, {"name": None}, {},
         {"name": "Ann", "extra": True}],
    ),
    "profile-photo-changed": (
        [photo(), photo(contentType="image/jpeg"), photo(bytes=1, width=1, height=1), photo(bytes=5000000)],
        [photo(sha256=SHA.upper()), photo(sha256=SHA[:63]), photo(sha256=SHA + "0"), photo(sha256=SHA[:63] + "g"),
         photo(sha256=SHA + "\n"), photo(contentType="image/gif"), photo(contentType="image/jpg"),
         photo(bytes=0), photo(bytes=5000001), photo(width=0), photo(height=0), photo(width=1.5),
         photo(height=None), photo(sha256=None), photo(extra="x"), {"photo": {}}, {"photo": None}, {},
         dict(photo(), extra=1)],
    ),
    "profile-photo-removed": (EMPTY_VALID, EMPTY_INVALID),
    "language-switched": (
        [{"language": "en"}, {"language": "en-US"}, {"language": "de-DE"}, {"language": "pt-BR"}],
        [{"language": "de-de"}, {"language": "DE-DE"}, {"language": "de_DE"}, {"language": "deu"},
         {"language": "d"}, {"language": ""}, {"language": "de-DEU"}, {"language": "de-"}, {"language": "de\n"},
         {"language": "de-DE\n"}, {"language": 1}, {}, {"language": "de", "region": "DE"}],
    ),
    "account-deleted": (EMPTY_VALID, EMPTY_INVALID),
    "account-moved-out": (
        [{"toShard": "eu-2", "events": 3, "digest": "ab" * 32}, {"toShard": "shard_9", "events": 1, "digest": SHA}],
        [{}, {"toShard": "EU-2", "events": 3, "digest": SHA}, {"toShard": "eu-2", "events": 0, "digest": SHA},
         {"toShard": "eu-2", "events": 3, "digest": SHA.upper()}, {"toShard": "eu-2\n", "events": 3, "digest": SHA},
         {"toShard": "eu-2", "events": 3, "digest": SHA, "extra": 1}, {"toShard": "eu-2", "digest": SHA}],
    ),
    "account-moved-in": (
        [{"fromShard": "eu-1", "events": 3, "digest": SHA, "movedOutPosition": 57, "movedOutHash": "cd" * 32}],
        [{}, {"fromShard": "eu-1", "events": 3, "digest": SHA, "movedOutPosition": 0, "movedOutHash": SHA},
         {"fromShard": "eu-1", "events": 3, "digest": SHA, "movedOutPosition": 57},
         {"fromShard": "eu-1", "events": 3, "digest": SHA, "movedOutPosition": 57, "movedOutHash": "xyz"},
         {"fromShard": "", "events": 3, "digest": SHA, "movedOutPosition": 57, "movedOutHash": SHA}],
    ),
}


def ecma_regex(pattern):
    """The pattern with every `$` outside a character class made `\\Z` (end of string only)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "$":
            c = r"\Z"
        out.append(c)
        i += 1
    return "".join(out)


def ecma_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and re.search(ecma_regex(pattern), instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


EcmaValidator = validators.extend(Draft202012Validator, {"pattern": ecma_pattern})


def check(path):
    """(problems, summary) for one schema file."""
    problems = []
    m = re.fullmatch(r"([a-z][a-z-]*)\.v([1-9][0-9]*)\.schema\.json", path.name)
    if not m:
        return [f"file name is not <type>.v<N>.schema.json"], ""
    event_type, version = m.group(1), int(m.group(2))
    try:
        schema = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return [f"not JSON: {e}"], ""
    try:
        Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        return [f"metaschema: {e.message}"], ""

    expected = {
        "$schema": METASCHEMA, "$id": ID_BASE + path.name,
        "x-reel-event-type": event_type, "x-reel-schema-version": version, "type": "object",
        "additionalProperties": False,
    }
    for key, value in expected.items():
        if schema.get(key) != value:
            problems.append(f"{key} is {schema.get(key)!r}, expected {value!r}")
    for key in ("title", "description"):
        if not isinstance(schema.get(key), str) or not schema[key].strip():
            problems.append(f"no {key}")
    if sorted(schema.get("required", [])) != sorted(schema.get("properties", {})):
        problems.append("not every property is required")

    if CURRENT_VERSIONS.get(event_type) != version:
        # An older version: its examples would be those of that version; only the metaschema applies.
        return problems, "metaschema only (not the current version)"
    valid, invalid = EXAMPLES.get(event_type, ([], []))
    if not valid or not invalid:
        problems.append("no examples in this script")
    ecma, stock = EcmaValidator(schema), Draft202012Validator(schema)
    for doc in valid:
        errors = list(ecma.iter_errors(doc))
        if errors:
            problems.append(f"rejects valid {json.dumps(doc, ensure_ascii=True)}: {errors[0].message}")
    stock_lenient = 0
    for doc in invalid:
        if ecma.is_valid(doc):
            problems.append(f"accepts invalid {json.dumps(doc, ensure_ascii=True)}")
        elif stock.is_valid(doc):
            stock_lenient += 1
    summary = f"metaschema ok, {len(valid)} valid accepted, {len(invalid)} invalid rejected"
    if stock_lenient:
        summary += f" (stock jsonschema, Python re `$`, would accept {stock_lenient} of them)"
    return problems, summary


def main():
    failed = False
    paths = sorted(SCHEMA_DIR.glob("*.json"))
    seen = set()
    for path in paths:
        problems, summary = check(path)
        m = re.fullmatch(r"(.+)\.v([0-9]+)\.schema\.json", path.name)
        if m:
            seen.add((m.group(1), int(m.group(2))))
        if problems:
            failed = True
            print(f"FAIL {path.name}: " + "; ".join(problems))
        else:
            print(f"ok   {path.name}: {summary}")
    for event_type, version in sorted(CURRENT_VERSIONS.items()):
        if (event_type, version) not in seen:
            failed = True
            print(f"FAIL {event_type}.v{version}.schema.json: missing (Reel writes this type at version {version})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
