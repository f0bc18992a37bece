"""The application's own emojis (``/applications/{id}/emojis``) with Discord's limits: a name of 2 to 32 letters,
digits or underscores, unique in the application; an image given as a data URI of a PNG, JPEG, GIF or WebP of at
most 256 KiB; at most 2,000 emojis. The images are kept as uploaded, for tests and screen renderers to read back.

A message may name an emoji in its text (``<:name:id>``, ``<a:name:id>``); the fake stores the text as it is,
known emoji or not, and :meth:`ApplicationEmojis.references` says which the text names."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .answers import ApiError
from .constants import JSON
from .form import FormErrors
from .model import FakeEmoji, new_snowflake

MAX_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
DATA_URI = re.compile(r"data:(image/(?:png|jpeg|gif|webp));base64,(.*)", re.DOTALL)
REFERENCE = re.compile(r"<(a?):(\w{2,32}):(\d+)>")


def image_type(data: bytes) -> str | None:
    """The image type the bytes are (as Discord and discord.py tell them), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass(frozen=True)
class EmojiReference:
    """An emoji a message's text names: ``<:name:id>``, and the application emoji it is, if any."""

    name: str
    id: int
    animated: bool
    emoji: FakeEmoji | None

    @property
    def known(self) -> bool:
        return self.emoji is not None and self.emoji.name == self.name


class ApplicationEmojis:
    """The emojis the application owns, by id, in the order they were created."""

    def __init__(self, creator: JSON, *, limit: int = MAX_EMOJIS) -> None:
        self.creator = creator
        self.limit = limit
        self.by_id: dict[int, FakeEmoji] = {}

    def __iter__(self) -> Iterator[FakeEmoji]:
        return iter(list(self.by_id.values()))

    def __len__(self) -> int:
        return len(self.by_id)

    def get(self, ref: int | str) -> FakeEmoji:
        """The emoji with this id or name (LookupError if there is none)."""
        for emoji in self.by_id.values():
            if ref in (emoji.id, str(emoji.id), emoji.name):
                return emoji
        raise LookupError(f"no application emoji {ref!r}; emojis: {[e.name for e in self.by_id.values()]}")

    def find(self, emoji_id: str) -> FakeEmoji:
        """The emoji a route names by id, or Discord's 404 / 10014."""
        emoji = self.by_id.get(int(emoji_id)) if emoji_id.isdigit() else None
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return emoji

    def create(self, body: object) -> FakeEmoji:
        """``POST``: a new emoji from ``{"name", "image"}``, or the error Discord would answer."""
        data = body if isinstance(body, dict) else {}
        errors = FormErrors()
        name = self._check_name(errors, data.get("name"), None)
        image, content_type = self._check_image(errors, data.get("image"))
        errors.raise_if_any()
        if len(self.by_id) >= self.limit:
            raise ApiError(400, 30008, f"Maximum number of emojis reached ({self.limit})", violation="too-many-emojis",
                           detail=f"an application may own {self.limit} emojis; {name!r} would be one more")
        emoji = FakeEmoji(new_snowflake(), name, image, content_type, dict(self.creator),
                          animated=content_type == "image/gif")
        self.by_id[emoji.id] = emoji
        return emoji

    def rename(self, emoji: FakeEmoji, body: object) -> None:
        """``PATCH``: only the name changes."""
        data = body if isinstance(body, dict) else {}
        if "name" not in data:
            return
        errors = FormErrors()
        name = self._check_name(errors, data["name"], emoji)
        errors.raise_if_any()
        emoji.name = name

    def delete(self, emoji: FakeEmoji) -> None:
        self.by_id.pop(emoji.id, None)

    def references(self, text: str) -> list[EmojiReference]:
        """The custom emojis ``text`` names, each with the application emoji it is (None if unknown)."""
        return [
            EmojiReference(name, int(emoji_id), bool(animated), self.by_id.get(int(emoji_id)))
            for animated, name, emoji_id in REFERENCE.findall(text)
        ]

    def _check_name(self, errors: FormErrors, name: object, current: FakeEmoji | None) -> str:
        if not isinstance(name, str) or not name:
            errors.add(("name",), "BASE_TYPE_REQUIRED", "This field is required")
            return ""
        if not NAME.fullmatch(name):
            errors.add(("name",), "STRING_TYPE_REGEX",
                       f"String value did not match validation regex: 2 to 32 of A-Z, a-z, 0-9 and _, not {name!r}.")
        taken = next((e for e in self.by_id.values() if e.name.lower() == name.lower() and e is not current), None)
        if taken is not None:
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                       f"Application emoji names must be unique: {taken.name!r} is emoji {taken.id}.")
        return name

    @staticmethod
    def _check_image(errors: FormErrors, image: object) -> tuple[bytes, str]:
        if not isinstance(image, str) or not image:
            errors.add(("image",), "BASE_TYPE_REQUIRED", "This field is required")
            return b"", ""
        found = DATA_URI.fullmatch(image)
        data = b""
        if found is not None:
            try:
                data = base64.b64decode(found.group(2), validate=True)
            except (binascii.Error, ValueError):
                found = None
        if found is None or image_type(data) != found.group(1):
            errors.add(("image",), "IMAGE_INVALID",
                       "Invalid image data: a data URI (data:image/png;base64,...) of a PNG, JPEG, GIF or WebP.")
            return b"", ""
        if len(data) > MAX_IMAGE_BYTES:
            errors.add(("image",), "BINARY_TYPE_MAX_SIZE",
                       f"File cannot be larger than {MAX_IMAGE_BYTES // 1024}.0 kb (this one is {len(data)} bytes).")
        return data, found.group(1)
