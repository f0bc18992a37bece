"""Discord's documented limits on what the bot sends: components, embeds, content, modals, commands, choices.

Each check adds to a :class:`~.form.FormErrors` the errors Discord would answer with 400 / 50035. The OpenAPI
specification (:mod:`.spec`) does not encode all of these (a button's label or emoji, unique custom ids, five
rows of legacy components, 2000 characters of content, required options first...), so both run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .answers import ApiError
from .constants import (
    ACTION_ROW,
    BUTTON,
    LABEL,
    LINK_STYLE,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    PREMIUM_STYLE,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_DISPLAY,
    TEXT_INPUT,
    MessageFlag,
)
from .form import FormErrors, Path
from .model import StoredMessage


def _validate_button(errors: FormErrors, button: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of {{1, 2, 3, 4, 5, 6}}, not {style!r}.")
    errors.max_len((*path, "label"), button.get("label"), 80)
    if style == LINK_STYLE:
        errors.required((*path, "url"), button.get("url"))
        if button.get("custom_id"):
            errors.add(
                (*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id."
            )
        errors.max_len((*path, "url"), button.get("url"), 512)
    elif style == PREMIUM_STYLE:
        errors.required((*path, "sku_id"), button.get("sku_id"))
    else:
        _validate_custom_id(errors, button.get("custom_id"), (*path, "custom_id"), seen)
        if not button.get("label") and not button.get("emoji"):
            errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji.")


def _validate_custom_id(errors: FormErrors, custom_id: Any, path: Path, seen: set[str]) -> None:
    if not errors.required(path, custom_id):
        return
    errors.length(path, str(custom_id), 1, 100)
    if custom_id in seen:
        errors.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(str(custom_id))


def _validate_select(errors: FormErrors, select: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    _validate_custom_id(errors, select.get("custom_id"), (*path, "custom_id"), seen)
    errors.max_len((*path, "placeholder"), select.get("placeholder"), 150)
    min_values, max_values = select.get("min_values"), select.get("max_values")
    errors.in_range((*path, "min_values"), min_values, 0, 25)
    errors.in_range((*path, "max_values"), max_values, 1, 25)
    if isinstance(min_values, int) and isinstance(max_values, int) and min_values > max_values:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX", "min_values exceeds max_values.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    errors.length((*path, "options"), options, 1, 25)
    values: set[str] = set()
    for i, option in enumerate(options):
        opath = (*path, "options", i)
        if errors.required((*opath, "label"), option.get("label")):
            errors.length((*opath, "label"), str(option["label"]), 1, 100)
        if errors.required((*opath, "value"), option.get("value")):
            errors.length((*opath, "value"), str(option["value"]), 1, 100)
            if option["value"] in values:
                errors.add(
                    (*opath, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique."
                )
            values.add(str(option["value"]))
        errors.max_len((*opath, "description"), option.get("description"), 100)
    if isinstance(max_values, int) and options and max_values > len(options):
        errors.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values exceeds options.")


def _validate_row(errors: FormErrors, row: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    if row.get("type") != ACTION_ROW:
        errors.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of (1,), not {row.get("type")!r}.',
        )
        return
    children = row.get("components") or []
    errors.length((*path, "components"), children, 1, 5)
    if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        cpath = (*path, "components", j)
        if child.get("type") == BUTTON:
            _validate_button(errors, child, cpath, seen)
        elif child.get("type") in SELECT_TYPES:
            _validate_select(errors, child, cpath, seen)
        else:
            errors.add(
                (*cpath, "type"), "COMPONENT_TYPE_INVALID", f"Component type {child.get('type')!r} is invalid here."
            )


def _validate_components_v2(errors: FormErrors, components: Sequence[Mapping[str, Any]], path: Path) -> None:
    seen: set[str] = set()
    total = 0
    text = 0

    def visit(items: Sequence[Mapping[str, Any]], ipath: Path) -> None:
        nonlocal total, text
        for i, item in enumerate(items):
            total += 1
            kind = item.get("type")
            cpath = (*ipath, i)
            if kind == ACTION_ROW:
                _validate_row(errors, item, cpath, seen)
                total += len(item.get("components") or [])
                continue
            if kind == BUTTON:
                _validate_button(errors, item, cpath, seen)
            elif kind in SELECT_TYPES:
                _validate_select(errors, item, cpath, seen)
            elif kind == TEXT_DISPLAY:
                text += len(str(item.get("content") or ""))
            visit(item.get("components") or [], (*cpath, "components"))
            accessory = item.get("accessory")
            if isinstance(accessory, Mapping):
                visit([accessory], (*cpath, "accessory"))

    visit(components, path)
    if total > 40:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    if text > 4000:
        errors.add(path, "MESSAGE_COMPONENTS_TEXT_TOO_LONG", "Text displays must be 4000 or fewer characters in total.")


def _validate_embeds(errors: FormErrors, embeds: Sequence[Mapping[str, Any]], path: Path) -> None:
    errors.length(path, list(embeds), 0, 10)
    total = 0
    for i, embed in enumerate(embeds):
        epath = (*path, i)
        for key, limit in (("title", 256), ("description", 4096)):
            errors.max_len((*epath, key), embed.get(key), limit)
            total += len(str(embed.get(key) or ""))
        footer = embed.get("footer") or {}
        errors.max_len((*epath, "footer", "text"), footer.get("text"), 2048)
        author = embed.get("author") or {}
        errors.max_len((*epath, "author", "name"), author.get("name"), 256)
        total += len(str(footer.get("text") or "")) + len(str(author.get("name") or ""))
        fields = embed.get("fields") or []
        errors.length((*epath, "fields"), fields, 0, 25)
        for j, fld in enumerate(fields):
            fpath = (*epath, "fields", j)
            if errors.required((*fpath, "name"), fld.get("name")):
                errors.max_len((*fpath, "name"), fld.get("name"), 256)
            if errors.required((*fpath, "value"), fld.get("value")):
                errors.max_len((*fpath, "value"), fld.get("value"), 1024)
            total += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
    if total > 6000:
        errors.add(path, "MESSAGE_EMBEDS_TOO_LONG", "Embed size exceeds maximum size of 6000")


def validate_message(errors: FormErrors, data: Mapping[str, Any], path: Path = ()) -> None:
    """Check a message create/edit body against Discord's limits (present fields only)."""
    content = data.get("content")
    if content is not None:
        errors.max_len((*path, "content"), str(content), 2000)
    embeds = data.get("embeds")
    if embeds:
        _validate_embeds(errors, embeds, (*path, "embeds"))
    components = data.get("components")
    if components:
        if int(data.get("flags") or 0) & MessageFlag.COMPONENTS_V2:
            _validate_components_v2(errors, components, (*path, "components"))
            if content:
                errors.add(
                    (*path, "content"),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "Cannot use content with components v2.",
                )
        else:
            errors.length((*path, "components"), components, 0, 5)
            seen: set[str] = set()
            for i, row in enumerate(components):
                _validate_row(errors, row, (*path, "components", i), seen)


def _validate_text_input(
    errors: FormErrors, item: Mapping[str, Any], path: Path, seen: set[str], *, labelled: bool
) -> None:
    _validate_custom_id(errors, item.get("custom_id"), (*path, "custom_id"), seen)
    if item.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if not labelled and errors.required((*path, "label"), item.get("label")):
        errors.length((*path, "label"), str(item["label"]), 1, 45)
    errors.in_range((*path, "min_length"), item.get("min_length"), 0, 4000)
    errors.in_range((*path, "max_length"), item.get("max_length"), 1, 4000)
    errors.max_len((*path, "placeholder"), item.get("placeholder"), 100)
    errors.max_len((*path, "value"), item.get("value"), int(item.get("max_length") or 4000))


def validate_modal(errors: FormErrors, data: Mapping[str, Any], path: Path = ()) -> None:
    seen: set[str] = set()
    if errors.required((*path, "custom_id"), data.get("custom_id")):
        errors.length((*path, "custom_id"), str(data["custom_id"]), 1, 100)
    if errors.required((*path, "title"), data.get("title")):
        errors.length((*path, "title"), str(data["title"]), 1, 45)
    components = data.get("components") or []
    errors.length((*path, "components"), components, 1, 5)
    for i, top in enumerate(components):
        cpath = (*path, "components", i)
        kind = top.get("type")
        if kind == ACTION_ROW:
            children = top.get("components") or []
            errors.length((*cpath, "components"), children, 1, 1)
            for j, child in enumerate(children):
                if child.get("type") == TEXT_INPUT:
                    _validate_text_input(errors, child, (*cpath, "components", j), seen, labelled=False)
                else:
                    errors.add(
                        (*cpath, "components", j, "type"),
                        "COMPONENT_TYPE_INVALID",
                        "Only text inputs go in modal rows.",
                    )
        elif kind == LABEL:
            if errors.required((*cpath, "label"), top.get("label")):
                errors.length((*cpath, "label"), str(top["label"]), 1, 45)
            errors.max_len((*cpath, "description"), top.get("description"), 100)
            inner = top.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                _validate_text_input(errors, inner, (*cpath, "component"), seen, labelled=True)
            elif inner.get("type") in SELECT_TYPES:
                _validate_select(errors, inner, (*cpath, "component"), seen)
            else:
                errors.add((*cpath, "component", "type"), "COMPONENT_TYPE_INVALID", "Invalid component in a label.")
        elif kind != TEXT_DISPLAY:
            errors.add((*cpath, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind!r} is invalid in a modal.")


_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _validate_options(errors: FormErrors, options: Sequence[Mapping[str, Any]], path: Path) -> None:
    errors.length(path, list(options), 0, 25)
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        opath = (*path, i)
        name = str(option.get("name") or "")
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors.add((*opath, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid option name {name!r}.")
        if name in names:
            errors.add(
                (*opath, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"Duplicate option {name!r}."
            )
        names.add(name)
        if errors.required((*opath, "description"), option.get("description")):
            errors.length((*opath, "description"), str(option["description"]), 1, 100)
        kind = option.get("type")
        if kind in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            _validate_options(errors, option.get("options") or [], (*opath, "options"))
            continue
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*opath, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        errors.length((*opath, "choices"), choices, 0, 25)
        for j, choice in enumerate(choices):
            errors.length((*opath, "choices", j, "name"), str(choice.get("name") or ""), 1, 100)
            errors.max_len((*opath, "choices", j, "value"), choice.get("value"), 100)


def validate_commands(errors: FormErrors, commands: Sequence[Mapping[str, Any]]) -> None:
    errors.length((), list(commands), 0, 100)
    names: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = int(command.get("type") or 1)
        name = str(command.get("name") or "")
        if kind == 1 and (not _COMMAND_NAME.match(name) or name != name.lower()):
            errors.add((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid command name {name!r}.")
        if (kind, name) in names:
            errors.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command {name!r}.")
        names.add((kind, name))
        if kind == 1:
            if errors.required((i, "description"), command.get("description")):
                errors.length((i, "description"), str(command["description"]), 1, 100)
            _validate_options(errors, command.get("options") or [], (i, "options"))



def validate_choices(errors: FormErrors, choices: Sequence[Mapping[str, Any]], path: Path) -> None:
    """An autocomplete answer: at most 25 choices, each named 1 to 100 characters."""
    errors.length(path, list(choices), 0, 25)
    for i, choice in enumerate(choices):
        errors.length((*path, i, "name"), str(choice.get("name") or ""), 1, 100)


def check_message_body(data: Mapping[str, Any], files: int, *, base: StoredMessage | None = None) -> None:
    """Raise the ApiError Discord would answer a message create (or, with ``base``, edit) body with, if any."""
    errors = FormErrors()
    validate_message(errors, data)
    errors.raise_if_any()
    check_not_empty(data, files, base=base)


def check_not_empty(data: Mapping[str, Any], files: int, *, base: StoredMessage | None = None) -> None:
    """50006 for a message that would show nothing (an edit keeps what ``base`` shows where it says nothing)."""

    def pick(key: str, current: Any) -> Any:
        return data.get(key, current)

    content = pick("content", base.content if base else None)
    embeds = pick("embeds", base.embeds if base else None)
    components = pick("components", base.components if base else None)
    attachments = pick("attachments", base.attachments if base else None)
    if not (content or embeds or components or attachments or files or data.get("sticker_ids") or data.get("poll")):
        if base is not None and base.loading and not data:
            return
        raise ApiError(
            400, 50006, "Cannot send an empty message", violation="empty-message", detail="empty message body"
        )
