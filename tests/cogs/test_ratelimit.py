"""The table writer paces its edits from the rate limit discord.py keeps, which it reads through private
attributes (``HTTPClient._bucket_hashes``, ``_buckets``, ``Ratelimit.expires/limit/remaining/dirty``): these
tests fail loudly if a discord.py upgrade moves them (discord.py is pinned to 2.7)."""

from __future__ import annotations

import discord
import pytest

from cogs.table._ratelimit import RATE_RESERVE, edit_pause


class FakeLimit:
    def __init__(self, limit: int, remaining: int, expires: float | None, dirty: bool = True) -> None:
        self.limit, self.remaining, self.expires, self.dirty = limit, remaining, expires, dirty


def client_with(limit: FakeLimit | None) -> discord.http.HTTPClient:
    http = discord.http.HTTPClient(loop=None)  # type: ignore[arg-type]
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=7, message_id=0)
    if limit is not None:
        http._buckets[f"{route.key}:{route.major_parameters}"] = limit  # type: ignore[assignment]
    return http


async def test_the_private_attributes_read_are_still_there() -> None:
    http = discord.http.HTTPClient(loop=None)  # type: ignore[arg-type]
    assert isinstance(http._bucket_hashes, dict) and isinstance(http._buckets, dict)
    limit = discord.http.Ratelimit(None)
    for name in ("limit", "remaining", "expires", "dirty"):
        assert hasattr(limit, name), name
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=7, message_id=0)
    assert route.key and route.major_parameters == "7"


def test_nothing_known_means_no_pause() -> None:
    assert edit_pause(client_with(None), 7, now=100.0, last_write=99.0) == 0.0
    assert edit_pause(client_with(FakeLimit(5, 0, 105.0, dirty=False)), 7, now=100.0, last_write=99.0) == 0.0


def test_an_exhausted_window_waits_for_its_end() -> None:
    assert edit_pause(client_with(FakeLimit(5, RATE_RESERVE, 104.0)), 7, now=100.0, last_write=99.9) \
        == pytest.approx(4.0)


def test_the_requests_left_are_spread_over_the_window() -> None:
    # 3 usable of 4 left over the 3 s left: one a second; the last write was 0.25 s ago.
    pause = edit_pause(client_with(FakeLimit(5, 4, 103.0)), 7, now=100.0, last_write=99.75)
    assert pause == pytest.approx(0.75)
    assert edit_pause(client_with(FakeLimit(5, 4, 99.0)), 7, now=100.0, last_write=99.75) == 0.0  # window over
