"""Tests of the fake Discord's own parts (spec checks, faults, application emojis), with the e2e fixtures:
``fake`` (failing a test on any violation it did not take), ``fake_config``, ``start_bot``, ``discord_errors``."""

from __future__ import annotations

from tests.e2e.conftest import discord_errors, fake, fake_config, start_bot

__all__ = ["discord_errors", "fake", "fake_config", "start_bot"]
