"""The engine's refusal: an action the rules do not allow now."""

from __future__ import annotations

from ..i18n.text import Text


class IllegalAction(ValueError):
    """An action that the rules do not allow now; ``args[0]`` says why: a ``Text``, a lower-case phrase that the
    Discord side words as a sentence (a ``str`` for a bad PHH text or a programmer's mistake)."""

    def __init__(self, reason: Text | str) -> None:
        super().__init__(reason)
