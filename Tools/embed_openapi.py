#!/usr/bin/env python3
"""Keeps the service's contract in step with the CLI's, then embeds it.

1. The reports both faces print (`reel ... --json` and `reel serve`) have one JSON form
   (Sources/ReportJSON), so their schemas are written once, in Schemas/cli/ (and
   Schemas/audit-verify*.schema.json): each shared component of Schemas/service/openapi.json is
   copied from its file (`SHARED`), its `$defs` references rewritten to point inside the component.
2. Schemas/service/openapi.json is embedded into Sources/ReelService/OpenAPIDocument.swift, so the
   `reel` binary serves its contract at /openapi.json wherever it is installed.

Edit the CLI schema (or the rest of openapi.json), then run this tool. With --check it changes
nothing and fails when either file is out of date (a test runs it)."""
import copy, json, pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
schemas = root / "Schemas"
source = schemas / "service/openapi.json"
target = root / "Sources/ReelService/OpenAPIDocument.swift"

# The component of openapi.json : the schema file it is a copy of.
SHARED = {
    "Change": "cli/command-result.schema.json",
    "Settings": "cli/settings.schema.json",
    "History": "cli/history.schema.json",
    "Saved": "cli/saved.schema.json",
    "Accounts": "cli/accounts.schema.json",
    "Deletion": "cli/account-delete.schema.json",
    "Import": "cli/account-import.schema.json",
    "Verification": "audit-verify.schema.json",
    "ShardedVerification": "audit-verify-shards.schema.json",
    "Rebuild": "cli/projections-rebuild.schema.json",
    "ShardedRebuild": "cli/projections-rebuild-shards.schema.json",
    "TitleList": "cli/title-list.schema.json",
    "SearchResults": "cli/search.schema.json",
    "Details": "cli/show.schema.json",
    "Tokens": "cli/token-list.schema.json",
    "Genres": "cli/genres.schema.json",
    "Languages": "cli/languages.schema.json",
}
# Components that are a definition inside a shared one.
ALIASES = {
    "Entry": "#/components/schemas/History/$defs/entry",
    "Token": "#/components/schemas/Tokens/$defs/token",
}


def rewrite(node, name):
    """`node` with every `#/$defs/...` reference pointing into the component `name`."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = f"#/components/schemas/{name}/" + value[2:]
            else:
                out[key] = rewrite(value, name)
        return out
    if isinstance(node, list):
        return [rewrite(item, name) for item in node]
    return node


def synced(document):
    document = copy.deepcopy(document)
    components = document["components"]["schemas"]
    for name, path in SHARED.items():
        schema = json.loads((schemas / path).read_text())
        schema.pop("$schema", None)
        schema.pop("$id", None)
        schema["description"] = f"(Schemas/{path}, copied by Tools/embed_openapi.py.) " + schema.get("description", "")
        components[name] = rewrite(schema, name)
    for name, reference in ALIASES.items():
        components[name] = {"$ref": reference}
    # A component nothing refers to any more (one a shared file now defines inside itself) goes.
    while True:
        text = json.dumps({key: value for key, value in document.items() if key != "components"}) + json.dumps(
            {key: value for key, value in document["components"].items() if key != "schemas"})
        used = {name for name in components if f'"#/components/schemas/{name}"' in text or f'"#/components/schemas/{name}/' in text}
        for name, schema in components.items():
            inner = json.dumps(schema)
            used |= {other for other in components if other != name and (f'"#/components/schemas/{other}"' in inner or f'"#/components/schemas/{other}/' in inner)}
        unused = [name for name in components if name not in used]
        if not unused:
            return document
        for name in unused:
            del components[name]


def resolve(document, node):
    """The schema `node` is, following `$ref`s within the document."""
    seen = 0
    while isinstance(node, dict) and set(node) == {"$ref"} and node["$ref"].startswith("#/") and seen < 16:
        target = document
        for part in node["$ref"][2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(target, dict) else None
        node, seen = target, seen + 1
    return node


def nullables(document):
    """`oneOf`/`anyOf` of `{"type": "null"}` and one typed schema (inline or referred to) written as
    that schema with `null` among its types (and in its enum): the same instances validate, and
    it is the form swift-openapi-generator (and generators like it) turn into an optional. The
    CLI's schemas keep the `oneOf` form, easier to read."""
    def is_null(member):
        return isinstance(member, dict) and member.get("type") == "null" and set(member) <= {"type", "description"}

    def walk(node):
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: walk(value) for key, value in node.items()}
        for key in ("oneOf", "anyOf"):
            members = node.get(key)
            if not isinstance(members, list) or len(members) != 2 or sum(map(is_null, members)) != 1:
                continue
            other = resolve(document, next(m for m in members if not is_null(m)))
            if not isinstance(other, dict) or "type" not in other or any(k in other for k in ("oneOf", "anyOf", "allOf", "$ref", "not", "if")):
                continue
            merged = copy.deepcopy(other)
            types = merged["type"] if isinstance(merged["type"], list) else [merged["type"]]
            merged["type"] = types + (["null"] if "null" not in types else [])
            if "enum" in merged and None not in merged["enum"]:
                merged["enum"] = merged["enum"] + [None]
            if "const" in merged:
                continue
            outer = {k: v for k, v in node.items() if k != key}
            merged.update(outer)
            node = merged
            break
        return node

    return walk(document)


def dangling(document):
    text = json.dumps(document)
    problems = []
    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref" and isinstance(value, str) and value.startswith("#/"):
                    target = document
                    for part in value[2:].split("/"):
                        part = part.replace("~1", "/").replace("~0", "~")
                        if isinstance(target, dict) and part in target:
                            target = target[part]
                        elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                            target = target[int(part)]
                        else:
                            problems.append(value)
                            break
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(document)
    return sorted(set(problems))


current = json.loads(source.read_text())
document = nullables(synced(current))
missing = dangling(document)
if missing:
    sys.exit("openapi.json refers to what it does not hold: " + ", ".join(missing))
compact = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
swift = (
    "// Generated by Tools/embed_openapi.py from Schemas/service/openapi.json: edit that file, then run the tool.\n\n"
    "/// The service's contract, an OpenAPI 3.1 document, served at `/openapi.json`.\n"
    "enum OpenAPIDocument {\n"
    "    static let text = #\"\"\"\n" + compact + "\n\"\"\"#\n\n"
    "    static let bytes = Array(text.utf8)\n"
    "}\n"
)
if "--check" in sys.argv:
    if document != current:
        sys.exit("Schemas/service/openapi.json is out of step with the CLI's schemas it shares: run Tools/embed_openapi.py")
    sys.exit(0 if target.exists() and target.read_text() == swift else "Sources/ReelService/OpenAPIDocument.swift is out of date: run Tools/embed_openapi.py")
if document != current:
    source.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
target.write_text(swift)
