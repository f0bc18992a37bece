"""The engine's refusal: an action the rules do not allow now."""


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message says why."""
