"""The fake Discord lives in ``bot.devtools.fakediscord`` (the offline demo uses it too);
the tests import it from here."""

from bot.devtools.fakediscord import *  # noqa: F403
from bot.devtools.fakediscord import __all__ as __all__
from bot.devtools.fakediscord import _Answer as _Answer
from bot.devtools.fakediscord import _call_matcher as _call_matcher
