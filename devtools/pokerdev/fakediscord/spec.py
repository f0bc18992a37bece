"""Request bodies checked against Discord's own OpenAPI specification (``discord-openapi.json``, next to this
file; see ``discord-openapi.NOTICE``) with ``jsonschema``.

Each request is matched to its operation (path template and method); its JSON body (or the ``payload_json`` of a
multipart request) is validated against the operation's request schema. The errors are answered as Discord
answers an invalid body, 400 / 50035 with the errors by field, and recorded as an ``invalid-form-body``
violation like the fake's own limits (:mod:`.limits`), which keep checking what the specification does not say.

The specification is loaded and prepared once per process (:func:`spec_checker`), and a validator is built once
per operation. Preparing rewrites, without changing what is valid:

* ``oneOf``/``anyOf`` unions whose branches are told apart by their ``type`` (components, command options,
  interaction callbacks) into a dispatch on ``type``: one branch is validated, and its errors say which field
  is wrong instead of "not valid under any of the given schemas";
* ``oneOf [null, X]`` into "null, or else X", and unions of constants into an ``enum``;
* each ``$ref`` into the schema it names (but for recursive ones), which halves the time a body takes;

and relaxes what Discord accepts but the specification does not say (:data:`RELAXED`).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .constants import JSON
from .form import FormErrors

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SPEC_FILE = Path(__file__).with_name("discord-openapi.json")
SPEC_URI = "urn:discord-openapi"
JSON_TYPES = ("application/json", "multipart/form-data")

# What Discord accepts that its specification does not say, as (schema name, replacement, why).
RELAXED: tuple[tuple[str, JSON, str], ...] = (
    (
        "SnowflakeType",
        {"type": ["string", "integer"], "pattern": r"^(0|[1-9][0-9]*)$", "minimum": 0},
        "Discord takes ids as JSON numbers too, and discord.py sends them so (recipient_id, attachment ids)",
    ),
)


@dataclass(frozen=True, eq=False)
class Operation:
    """One operation of the specification: ``POST /channels/{channel_id}/messages`` is ``create_message``."""

    method: str
    template: str
    operation_id: str
    segments: tuple[str | None, ...]  # a literal segment, or None for a {parameter}
    body: JSON | None  # the request body's JSON schema
    body_required: bool

    @property
    def literals(self) -> int:
        return sum(s is not None for s in self.segments)


class SpecChecker:
    """Finds a request's operation and validates its body."""

    def __init__(self, spec: JSON) -> None:
        from jsonschema import Draft202012Validator, validators
        from referencing import Registry
        from referencing.jsonschema import DRAFT202012

        prepared = prepare(spec)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(prepared))
        keywords = {"x-dispatch": _dispatch, "x-nullable": _nullable}
        self._validator_class: Any = validators.extend(Draft202012Validator, keywords)  # type: ignore[no-untyped-call]
        self._operations: dict[tuple[str, int], list[Operation]] = {}
        for template, item in prepared.get("paths", {}).items():
            for method, operation in item.items():
                if method == "parameters":
                    continue
                op = _operation(method.upper(), template, operation)
                self._operations.setdefault((op.method, len(op.segments)), []).append(op)
        for candidates in self._operations.values():
            candidates.sort(key=lambda o: -o.literals)  # /messages/@original before /messages/{message_id}
        self._validators: dict[Operation, Validator] = {}

    def operation(self, method: str, path: str) -> Operation | None:
        segments = path.strip("/").split("/")
        for op in self._operations.get((method, len(segments)), []):
            if all(want is None or want == got for want, got in zip(op.segments, segments)):
                return op
        return None

    def check(self, method: str, path: str, body: Any) -> FormErrors:
        """The errors of the body of ``method path`` (none for a route the specification does not know)."""
        errors = FormErrors()
        op = self.operation(method, path)
        if op is None or op.body is None:
            return errors
        if body is None:
            if op.body_required:
                errors.add((), "BASE_TYPE_REQUIRED", "This request needs a body")
            return errors
        validator = self._validators.get(op)
        if validator is None:
            validator = self._validators[op] = self._validator_class(op.body, registry=self._registry)
        if not validator.is_valid(body):
            for error in validator.iter_errors(body):
                _add(errors, error)
        return errors


@functools.cache
def spec_checker() -> SpecChecker:
    """The checker, built once per process (reading and preparing the 1.2 MB specification takes ~50 ms)."""
    return SpecChecker(json.loads(SPEC_FILE.read_text(encoding="utf-8")))


def spec_checks_available() -> bool:
    """Whether ``jsonschema`` is installed (it comes with the test extra; the demo and the bench do without)."""
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return False
    return True


# -- preparing the specification ----------------------------------------------------------------------------------


def prepare(spec: JSON) -> JSON:
    """A copy of the specification ready for validation (see the module's docstring)."""
    schemas = spec.get("components", {}).get("schemas", {})
    prepared: JSON = _rewrite(spec, schemas)
    for name, replacement, _why in RELAXED:
        prepared["components"]["schemas"][name] = replacement
    inlined: JSON = _Inliner(prepared["components"]["schemas"]).inline(prepared)
    return inlined


class _Inliner:
    """Replaces ``{"$ref": "...#/components/schemas/X"}`` by X itself (one shared copy each), but where X refers
    back to itself: that ``$ref`` stays, and the registry resolves it."""

    def __init__(self, schemas: Mapping[str, Any]) -> None:
        self.schemas = schemas
        self.done: dict[str, Any] = {}
        self.open: set[str] = set()

    def inline(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        name = str(ref).rsplit("/", 1)[-1] if isinstance(ref, str) and "/components/schemas/" in ref else None
        if name is None or name in self.open or name not in self.schemas:
            return {key: self.inline(value) for key, value in node.items()}
        target = self._schema(name)
        if len(node) == 1:
            return target
        rest = {key: self.inline(value) for key, value in node.items() if key != "$ref"}
        rest["allOf"] = [*rest.get("allOf", []), target]
        return rest

    def _schema(self, name: str) -> Any:
        if name not in self.done:
            self.open.add(name)
            self.done[name] = self.inline(self.schemas[name])
            self.open.discard(name)
        return self.done[name]


def _rewrite(node: Any, schemas: Mapping[str, Any]) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rewrite(value, schemas) for key, value in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        out["$ref"] = SPEC_URI + ref  # so that any sub-schema can be a validator's root
    for key in ("oneOf", "anyOf"):
        branches = out.get(key)
        if isinstance(branches, list) and branches:
            _simplify_union(out, key, branches, schemas)
    return out


def _simplify_union(out: JSON, key: str, branches: list[Any], schemas: Mapping[str, Any]) -> None:
    if all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"} for b in branches):
        del out[key]
        out["enum"] = [b["const"] for b in branches]
        return
    nullable = any(b == {"type": "null"} for b in branches)
    rest = [b for b in branches if b != {"type": "null"}]
    tags = [_type_tags(b, schemas) for b in rest]
    flat = [tag for branch_tags in tags if branch_tags for tag in branch_tags]
    if len(rest) > 1 and all(tags) and len(flat) == len(set(flat)):
        table = {str(tag): branch for branch, branch_tags in zip(rest, tags) for tag in branch_tags or ()}
        rest = [{"x-dispatch": table}]
    if len(rest) != 1:
        return
    del out[key]
    if nullable:
        out["x-nullable"] = rest[0]
    else:
        out.setdefault("allOf", []).append(rest[0])


def _type_tags(branch: Any, schemas: Mapping[str, Any]) -> list[Any] | None:
    """The values of ``type`` that select this branch of a union (an object schema with an enum/const type)."""
    while isinstance(branch, dict) and set(branch) == {"$ref"}:
        branch = schemas.get(str(branch["$ref"]).rsplit("/", 1)[-1], {})
    if not isinstance(branch, dict) or branch.get("type") != "object":
        return None
    tag = (branch.get("properties") or {}).get("type") or {}
    if "enum" in tag:
        return list(tag["enum"])
    if "const" in tag:
        return [tag["const"]]
    return None


def _operation(method: str, template: str, operation: JSON) -> Operation:
    segments = tuple(None if re.fullmatch(r"\{\w+\}", s) else s for s in template.strip("/").split("/"))
    request = operation.get("requestBody") or {}
    content = request.get("content") or {}
    body = next((content[t]["schema"] for t in JSON_TYPES if t in content), None)
    return Operation(method, template, str(operation.get("operationId", "")), segments, body,
                     bool(request.get("required")))


# -- the keywords of the prepared specification -----------------------------------------------------------------


def _dispatch(validator: Any, table: Mapping[str, Any], instance: Any, schema: JSON) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'", validator="type", validator_value="object")
        return
    branch = table.get(str(instance.get("type")))
    if branch is None:
        known = ", ".join(table)
        yield ValidationError(
            f"Value of field \"type\" must be one of ({known}), not {instance.get('type')!r}.",
            validator="x-dispatch",
            validator_value=list(table),
            path=["type"] if "type" in instance else [],
        )
        return
    yield from validator.descend(instance, branch)


def _nullable(validator: Any, inner: Any, instance: Any, schema: JSON) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, inner)


# -- errors as Discord words them -------------------------------------------------------------------------------


def _add(errors: FormErrors, error: ValidationError) -> None:
    path = tuple(error.absolute_path)
    keyword, value = error.validator, error.validator_value
    if keyword in ("anyOf", "oneOf") and error.context:
        for inner in _closest_branch(error.context):
            _add(errors, inner)
        return
    if keyword == "required" and isinstance(error.instance, dict) and isinstance(value, list):
        for missing in [name for name in value if name not in error.instance]:
            errors.add((*path, missing), "BASE_TYPE_REQUIRED", "This field is required")
        return
    code, message = _WORDING.get(str(keyword), ("BASE_TYPE_INVALID", "{message}"))
    errors.add(path, code, message.format(value=value, message=error.message))


def _closest_branch(context: list[ValidationError]) -> list[ValidationError]:
    """The errors of the union branch the body came closest to (its errors deepest in the body, then fewest)."""
    branches: dict[Any, list[ValidationError]] = {}
    for inner in context:
        branches.setdefault(inner.relative_schema_path[0] if inner.relative_schema_path else None, []).append(inner)
    return max(branches.values(), key=lambda errs: (min(len(e.absolute_path) for e in errs), -len(errs)))


_WORDING: dict[str, tuple[str, str]] = {
    "maxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {value} or fewer in length."),
    "maxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {value} or fewer in length."),
    "minLength": ("BASE_TYPE_MIN_LENGTH", "Must be {value} or more in length."),
    "minItems": ("BASE_TYPE_MIN_LENGTH", "Must be {value} or more in length."),
    "maximum": ("NUMBER_TYPE_MAX", "Value should be less than or equal to {value}."),
    "minimum": ("NUMBER_TYPE_MIN", "Value should be greater than or equal to {value}."),
    "enum": ("BASE_TYPE_CHOICES", "Value must be one of {value}."),
    "const": ("BASE_TYPE_CHOICES", "Value must be {value}."),
    "x-dispatch": ("UNION_TYPE_CHOICES", "{message}"),
    "type": ("BASE_TYPE_INVALID", "{message}"),
}
