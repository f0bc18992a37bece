"""The screens tool's two evenings (``python -m pokerdev.screens`` with its defaults), played once per test process
and shared by the tests that read their moments: each evening takes seconds of waiting for the bot."""

from __future__ import annotations

import pytest

from pokerdev import screens

PACE = 0.01  # the players' pace: the tool's default is 0.05; the moments are the same (they wait for events)


@pytest.fixture(scope="session")
def dealers_choice_evening() -> screens.Camera:
    """The dealer's-choice evening docs/screens shows (seed 4, four hands, four players, the scripted games)."""
    (camera,) = screens.shoot_evenings([n for n in screens.MOMENTS if n not in screens.MIXED_MOMENTS], pace=PACE)
    return camera


@pytest.fixture(scope="session")
def mixed_evening() -> screens.Camera:
    """The HORSE evening docs/screens shows (seed 4, one hand of each game)."""
    (camera,) = screens.shoot_evenings(screens.MIXED_MOMENTS, pace=PACE)
    return camera
