"""The fake Discord lives in ``pokerdev.fakediscord`` (the offline demo uses it too);
the tests import it from here."""

from pokerdev.fakediscord import *  # noqa: F403
from pokerdev.fakediscord import __all__ as __all__
