#!/usr/bin/env python3
"""Checks a JSON document against a JSON Schema (draft 2020-12), the subset the probe's schema uses.

Python's standard library only: the GPU machine may have no `jsonschema`. Keywords understood: type, enum,
const, required, properties, additionalProperties (a schema or false), propertyNames, items, minimum, maximum,
$ref to "#/..." (local, e.g. "#/$defs/gpu"), anyOf, oneOf, allOf. Unknown keywords are rejected when the
schema is loaded, so a schema never silently relies on something this validator ignores.

Usage: validate_schema.py [--expect-invalid] SCHEMA DOCUMENT...
Exit status: 0 every document is valid (with --expect-invalid: every document is well-formed JSON and
violates the schema), 1 otherwise, 2 when a file cannot be read or the schema uses an unknown keyword.
"""
import json
import sys

KNOWN = {
    "$schema", "$id", "$defs", "$ref", "$comment", "title", "description", "type", "enum", "const", "required",
    "properties", "additionalProperties", "propertyNames", "items", "minimum", "maximum", "anyOf", "oneOf",
    "allOf",
}


class SchemaError(Exception):
    pass


def check_keywords(schema, where="#"):
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: a schema must be an object or a boolean")
    unknown = set(schema) - KNOWN
    if unknown:
        raise SchemaError(f"{where}: keywords this validator does not implement: {', '.join(sorted(unknown))}")
    for key in ("properties", "$defs"):
        for name, sub in schema.get(key, {}).items():
            check_keywords(sub, f"{where}/{key}/{name}")
    for key in ("additionalProperties", "propertyNames", "items"):
        if key in schema:
            check_keywords(schema[key], f"{where}/{key}")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            check_keywords(sub, f"{where}/{key}/{i}")


def type_matches(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise SchemaError(f"unknown type name {name!r}")


def describe(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def same(a, b):
    # JSON equality: true is not 1.
    return type(a) is type(b) and a == b or (describe(a) == describe(b) == "number" and a == b)


class Validator:
    def __init__(self, root):
        self.root = root

    def resolve(self, ref):
        if not ref.startswith("#"):
            raise SchemaError(f"only local $ref is supported, not {ref!r}")
        node = self.root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"$ref {ref!r} points nowhere")
            node = node[part]
        return node

    def errors(self, value, schema, path="$"):
        if schema is True:
            return []
        if schema is False:
            return [f"{path}: not allowed here"]
        out = []
        if "$ref" in schema:
            out += self.errors(value, self.resolve(schema["$ref"]), path)
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(type_matches(value, n) for n in names):
                return out + [f"{path}: expected {' or '.join(names)}, got {describe(value)} {json.dumps(value)[:60]}"]
        if "enum" in schema and not any(same(value, e) for e in schema["enum"]):
            out.append(f"{path}: {json.dumps(value)[:60]} is not one of {json.dumps(schema['enum'])}")
        if "const" in schema and not same(value, schema["const"]):
            out.append(f"{path}: must be {json.dumps(schema['const'])}")
        if describe(value) == "number":
            if "minimum" in schema and value < schema["minimum"]:
                out.append(f"{path}: {value} is below the minimum {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                out.append(f"{path}: {value} is above the maximum {schema['maximum']}")
        if isinstance(value, dict):
            for name in schema.get("required", []):
                if name not in value:
                    out.append(f"{path}: missing required member {name!r}")
            props = schema.get("properties", {})
            for name, member in value.items():
                where = f"{path}.{name}"
                if "propertyNames" in schema:
                    out += [f"{where}: member name {e.split(': ', 1)[1]}"
                            for e in self.errors(name, schema["propertyNames"], where)]
                if name in props:
                    out += self.errors(member, props[name], where)
                elif "additionalProperties" in schema:
                    out += self.errors(member, schema["additionalProperties"], where)
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                out += self.errors(item, schema["items"], f"{path}[{i}]")
        for sub in schema.get("allOf", []):
            out += self.errors(value, sub, path)
        if "anyOf" in schema:
            if all(self.errors(value, sub, path) for sub in schema["anyOf"]):
                out.append(f"{path}: matches none of anyOf")
        if "oneOf" in schema:
            matching = sum(1 for sub in schema["oneOf"] if not self.errors(value, sub, path))
            if matching != 1:
                out.append(f"{path}: matches {matching} of oneOf, not exactly one")
        return out


def load(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SchemaError(f"{what} {path}: cannot read: {e.strerror}") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{what} {path}: not JSON: {e}") from e


def main(argv):
    args = argv[1:]
    expect_invalid = False
    if args and args[0] == "--expect-invalid":
        expect_invalid = True
        args = args[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        schema = load(args[0], "schema")
        check_keywords(schema)
    except (SchemaError, ValueError) as e:
        print(f"validate_schema: {e}", file=sys.stderr)
        return 2
    validator = Validator(schema)
    status = 0
    for path in args[1:]:
        try:
            document = load(path, "document")
        except SchemaError as e:
            print(f"validate_schema: {e}", file=sys.stderr)
            return 2
        except ValueError as e:
            # Not JSON at all: with --expect-invalid this is still a failure, since the point is to show the
            # schema (not the parser) rejects the document.
            print(f"validate_schema: INVALID {e}")
            status = 1
            continue
        try:
            problems = validator.errors(document, schema)
        except SchemaError as e:
            print(f"validate_schema: schema {args[0]}: {e}", file=sys.stderr)
            return 2
        if problems:
            print(f"validate_schema: INVALID {path} ({len(problems)} problem{'s' if len(problems) > 1 else ''})")
            for p in problems[:20]:
                print(f"  {p}")
            if not expect_invalid:
                status = 1
        else:
            print(f"validate_schema: valid {path}")
            if expect_invalid:
                print(f"validate_schema: {path} was expected to violate the schema", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
