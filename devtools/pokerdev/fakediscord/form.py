"""Discord's 50035 "Invalid Form Body": field errors collected by path and answered in Discord's format."""

from __future__ import annotations

from typing import Any

from .answers import ApiError
from .constants import JSON

Path = tuple[str | int, ...]


class FormErrors:
    """Collects field errors and renders them like Discord's 50035 "Invalid Form Body"."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def max_len(self, path: Path, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        size = len(value) if isinstance(value, (str, list, tuple)) else 0
        if not low <= size <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: Path, value: Any) -> bool:
        if value is None or value == "":
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return False
        return True

    def in_range(self, path: Path, value: Any, low: int, high: int) -> None:
        if value is not None and (not isinstance(value, int) or not low <= value <= high):
            self.add(path, "NUMBER_TYPE_OUT_OF_RANGE", f"Value should be between {low} and {high}.")

    def nested(self) -> JSON:
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        return "; ".join(f"{'.'.join(map(str, p)) or '(body)'}: {m}" for p, _, m in self.items)


    def raise_if_any(self, violation: str = "invalid-form-body", *, source: str = "") -> None:
        """Answer 400 / 50035 with the collected errors (and record ``violation``), if there are any."""
        if self.items:
            detail = self.summary() + (f" ({source})" if source else "")
            raise ApiError(400, 50035, "Invalid Form Body", errors=self.nested(), violation=violation, detail=detail)
