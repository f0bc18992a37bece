"""Fixtures for the reliability tests: the e2e fixtures (the fake Discord, ``poker_bot`` with its audit and hole-card
checks, the guard that fails a test on a logged error), plus ``figures``, which counts what each test threw at the
bot (faults injected, kills survived, inputs tried, chips lost) and prints the totals at the end of the run.

The figures travel in each test's ``user_properties``, so they add up under pytest-xdist too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import discord_errors, fake, fake_config, start_bot
from tests.e2e.conftest_bot import poker_bot

__all__ = ["discord_errors", "fake", "fake_config", "figures", "poker_bot", "start_bot"]

FIGURE = "reliability"


class Figures(Counter[str]):
    """What one test counted: ``figures["faults injected"] += 3``."""


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Iterator[Figures]:
    counted = Figures()
    yield counted
    request.node.user_properties.append((FIGURE, dict(counted)))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    reports = [r for group in terminalreporter.stats.values() for r in group if hasattr(r, "when")]
    passed = {r.nodeid for r in reports if r.when == "call" and r.outcome == "passed"}
    totals: Counter[str] = Counter()
    tests = 0
    for report in reports:
        if report.when != "teardown" or report.nodeid not in passed:
            continue
        for name, value in getattr(report, "user_properties", []):
            if name == FIGURE:
                totals.update(value)
                tests += 1
    if totals:
        terminalreporter.section("reliability figures")
        for key in sorted(totals):
            terminalreporter.write_line(f"{key}: {totals[key]:,}")
        terminalreporter.write_line(f"(from {tests} passing tests)")
