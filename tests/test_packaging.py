"""The bot's wheel and image hold only the bot: the fake Discord, the scripted players and Discord's OpenAPI spec
live in ``devtools/`` (the ``pokerdev`` package), installed for the tests and the demo only."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]


def test_the_bot_distribution_packages_neither_the_fake_discord_nor_the_openapi_spec() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = find_packages(str(ROOT), include=config["packages"]["find"]["include"])
    assert {"bot", "bot.runtime", "bot.tools", "bot.content", "cogs", "cogs.table"} <= set(packages)
    assert not [name for name in packages if name.startswith(("pokerdev", "devtools", "tests", "bot.devtools"))]
    shipped = [
        path.relative_to(ROOT)
        for package in packages
        for path in (ROOT / package.replace(".", "/")).rglob("*")
        if path.is_file() and any(fnmatch(path.name, pattern) for pattern in config["package-data"]["*"])
    ]
    assert shipped, "the migrations are package data"
    assert not [path for path in shipped if path.suffix == ".json" or "openapi" in path.name]
    assert not list((ROOT / "bot").rglob("discord-openapi*")) and not list((ROOT / "cogs").rglob("*openapi*"))


def test_the_image_leaves_the_development_tools_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert "devtools/" in ignored and "tests/" in ignored
