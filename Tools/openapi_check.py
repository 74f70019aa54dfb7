#!/usr/bin/env python3
"""Checks HTTP answers against the service's OpenAPI document (Schemas/service/openapi.json), as
ReelServiceTests hands them over: the status must be one the operation documents, the
Content-Type one of that response's media types, every header the response requires present and
valid, and a JSON body valid against the response's schema (JSON Schema 2020-12, formats checked,
`$ref`s resolved inside the document).

Reads one JSON object on stdin:
    {"document": "Schemas/service/openapi.json",
     "exchanges": [{"label": "…", "method": "GET", "path": "/v1/saved?x=1", "status": 401,
                    "headers": {"Content-Type": "…", …}, "body": "…"}, …]}
An exchange may name a shared response instead of a route ("response": "NotFound"), for answers
to paths the document has no reason to list. Prints one line per exchange (`ok LABEL` or
`FAIL LABEL: why`) and exits 1 if any failed.
"""
import json, re, sys
import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE = "urn:reel:openapi"


def child(location, *parts):
    """The JSON pointer `location` extended by `parts` (escaped)."""
    return location + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Checker:
    def __init__(self, document):
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(BASE, resource)
        # {name} is one path segment; a trailing /** (a route taking the rest of the path, as the
        # service's /tile/** does) is one or more.
        self.templates = [
            (re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(t)).replace(re.escape("/**"), "/.+") + "$"), t)
            for t in document["paths"]
        ]

    def resolve(self, value):
        while isinstance(value, dict) and "$ref" in value:
            value = self.at(value["$ref"])
        return value

    def at(self, reference):
        node = self.document
        for part in reference.lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def validate(self, instance, location):
        schema = {"$ref": BASE + location}
        validator = jsonschema.Draft202012Validator(schema, registry=self.registry, format_checker=jsonschema.FormatChecker())
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(instance)]

    def check(self, exchange):
        status = str(exchange["status"])
        if "response" in exchange:
            location = child("#/components/responses", exchange["response"])
        else:
            path = exchange["path"].split("?")[0]
            template = next((t for pattern, t in self.templates if pattern.match(path)), None)
            if template is None:
                return [f"{path} is not a path of the document"]
            operation = self.document["paths"][template].get(exchange["method"].lower())
            if operation is None:
                return [f"{exchange['method']} {template} is not an operation of the document"]
            if status not in operation["responses"]:
                return [f"{exchange['method']} {template} does not document status {status} (it has {', '.join(operation['responses'])})"]
            location = child("#/paths", template, exchange["method"].lower(), "responses", status)
            # A shared response is checked where it is defined, so its schema's refs resolve.
            while "$ref" in self.at(location):
                location = self.at(location)["$ref"]
        response = self.at(location)
        headers = {name.lower(): value for name, value in exchange.get("headers", {}).items()}
        errors = []
        for name, header in response.get("headers", {}).items():
            header = self.resolve(header)
            value = headers.get(name.lower())
            if value is None:
                if header.get("required"):
                    errors.append(f"header {name} is required")
                continue
            schema = self.resolve(header.get("schema", {}))
            if schema.get("type") == "integer":
                try:
                    value = int(value)
                except ValueError:
                    errors.append(f"header {name}: {value!r} is not an integer")
                    continue
            declared = response["headers"][name]
            header_location = (declared["$ref"] if "$ref" in declared else child(location, "headers", name)) + "/schema"
            errors += [f"header {name}: {e}" for e in self.validate(value, header_location)]
        content_type = headers.get("content-type", "").split(";")[0].strip()
        media = response.get("content", {})
        if not media:
            return errors
        if content_type not in media:
            return errors + [f"Content-Type {content_type!r} is not one of {', '.join(media)}"]
        body = exchange.get("body", "")
        if content_type == "text/event-stream":
            errors += self.events(body, child(location, "content", content_type))
        elif content_type.endswith("json"):
            try:
                instance = json.loads(body)
            except ValueError as error:
                return errors + [f"the body is not JSON: {error}"]
            errors += self.validate(instance, child(location, "content", content_type, "schema"))
        return errors


    def events(self, body, location):
        """Server-Sent Events: each event's data checked against the schema the media type names
        for its event type in `x-event-data` (`default` for types it does not name)."""
        schemas = self.at(location).get("x-event-data", {})
        errors = []
        for frame in body.split("\n\n"):
            fields = [line.split(":", 1) for line in frame.split("\n") if line and not line.startswith(":")]
            fields = [(name, value[1:] if value.startswith(" ") else value) for name, value in (f if len(f) == 2 else (f[0], "") for f in fields)]
            unknown = [name for name, _ in fields if name not in ("id", "event", "data", "retry")]
            if unknown:
                errors.append(f"not a Server-Sent Events field: {unknown[0]}")
            data = "\n".join(value for name, value in fields if name == "data")
            if not any(name == "data" for name, _ in fields):
                continue
            event = next((value for name, value in fields if name == "event"), "message")
            name = event if event in schemas else "default"
            if name not in schemas:
                errors.append(f"event {event!r} is not one the document names")
                continue
            try:
                instance = json.loads(data)
            except ValueError as error:
                errors.append(f"event {event!r}: the data is not JSON: {error}")
                continue
            errors += [f"event {event!r}: {e}" for e in self.validate(instance, child(location, "x-event-data", name))]
        return errors


def main():
    request = json.load(sys.stdin)
    with open(request["document"]) as file:
        checker = Checker(json.load(file))
    failed = False
    for exchange in request["exchanges"]:
        errors = checker.check(exchange)
        label = exchange.get("label") or f"{exchange.get('method')} {exchange.get('path')} {exchange['status']}"
        if errors:
            failed = True
            print(f"FAIL {label}: " + "; ".join(errors))
        else:
            print(f"ok {label}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
