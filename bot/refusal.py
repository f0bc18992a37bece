"""Refusals whose words may name members, without Discord markup below the cogs.

The store and the table layer say "{member} is not seated at this table" and
give the member's id; whoever shows the text (the cogs) fills the names in as
mentions. ``str()`` of a refusal names members plainly, for logs and tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Refusal(Exception):
    """A friendly sentence; ``members`` fill its ``{name}`` fields (an id, or several ids joined by commas)."""

    def __init__(self, text: str, **members: int | Sequence[int]) -> None:
        super().__init__(text)
        self.text = text
        self.members = members

    def render(self, name: Callable[[int], str]) -> str:
        """The sentence with each member named by ``name(id)``."""
        if not self.members:
            return self.text
        return self.text.format(**{key: _names(value, name) for key, value in self.members.items()})

    @property
    def message(self) -> str:
        """The friendly message (members named plainly)."""
        return str(self)

    def __str__(self) -> str:
        return self.render(lambda user: f"member {user}")


def _names(value: int | Sequence[int], name: Callable[[int], str]) -> str:
    if isinstance(value, int):
        return name(value)
    return ", ".join(name(user) for user in value)
