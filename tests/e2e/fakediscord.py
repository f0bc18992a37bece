"""The fake Discord lives in ``bot.devtools.fakediscord`` (the offline demo uses it too);
the tests import it from here."""

from bot.devtools import fakediscord as _impl

globals().update({name: value for name, value in vars(_impl).items() if not name.startswith("__")})
