"""The Docker image's parts that can be tried without a Docker engine (none runs here, and Docker Hub cannot be
reached): the order of its layers, its user, its entry point and its health check, run as the image runs them;
and the health check's file, written while the bot is in touch with Discord."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from bot.runtime.health import STALE, check_health
from cogs.gateway_watch import GatewayWatch

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def env_of_image() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in instructions():
        if keyword == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                env[key] = value
    return env


def exec_form(keyword: str) -> list[str]:
    [rest] = [r for k, r in instructions() if k == keyword]
    rest = rest.split("CMD", 1)[1].strip() if keyword == "HEALTHCHECK" else rest
    assert rest.startswith("["), f"{keyword} must be in exec form (python is then process 1 and gets SIGTERM)"
    import json

    command: list[str] = json.loads(rest)
    return command


def run_as_image(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``command`` with the image's environment (some of it replaced by ``env``), from this checkout."""
    full = {**{k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "POKER_DB", "HEALTH_FILE")},
            **env_of_image(), **env, "PYTHONPATH": str(ROOT)}
    assert command[0] == "python"
    return subprocess.run([sys.executable, *command[1:]], cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def test_the_dependencies_are_installed_before_the_code_is_copied() -> None:
    steps = instructions()
    index = {f"{k} {r}": i for i, (k, r) in enumerate(steps)}
    copy_project = index["COPY pyproject.toml ./"]
    installs = [i for i, (k, r) in enumerate(steps) if k == "RUN" and "pip install -r" in r]
    copy_code = min(i for i, (k, r) in enumerate(steps) if k == "COPY" and r.split()[0] in ("bot", "cogs", "."))
    assert len(installs) == 1 and copy_project < installs[0] < copy_code
    # The step that lists them prints exactly the project's dependencies and the postgres extra's (a bank on
    # PostgreSQL: compose.yaml).
    run = steps[installs[0]][1]
    script = re.search(r'python -c "(.+?)"\s*>', run)
    assert script is not None
    printed = subprocess.run([sys.executable, "-c", script[1]],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["postgres"]
    assert printed == [d.replace(" ", "") for d in wanted]
    assert any(k == "RUN" and "pip install --no-deps ." in r for k, r in steps[copy_code:])


def test_the_image_runs_as_uid_1000_and_the_readme_says_how_to_mount_a_folder() -> None:
    steps = instructions()
    users = [r for k, r in steps if k == "USER"]
    assert users == ["poker"]
    assert any(k == "RUN" and "useradd --system --uid 1000" in r for k, r in steps)
    readme = (ROOT / "README.md").read_text()
    assert "sudo chown 1000:1000 /srv/poker" in readme and "--env-file .env" in readme
    assert "-e DISCORD_TOKEN" not in readme


def test_the_entry_point_is_the_bot(tmp_path: Path) -> None:
    command = exec_form("CMD")
    assert command == ["python", "-m", "bot"]
    done = run_as_image(command, tmp_path, POKER_DB=str(tmp_path / "poker.db"))  # no token given
    assert done.returncode == 2 and done.stderr.startswith("DISCORD_TOKEN is not set."), done.stderr


def test_the_health_check(tmp_path: Path) -> None:
    command = exec_form("HEALTHCHECK")
    assert command == ["python", "-m", "bot", "health"]
    health = tmp_path / "poker-bot.health"
    missing = run_as_image(command, tmp_path, HEALTH_FILE=str(health))
    assert missing.returncode == 1 and "has not been in touch with Discord yet" in missing.stderr
    health.write_text("in touch\n")
    fresh = run_as_image(command, tmp_path, HEALTH_FILE=str(health))
    assert fresh.returncode == 0 and fresh.stdout.startswith("healthy: in touch with Discord"), fresh.stdout
    old = time.time() - STALE - 60
    os.utime(health, (old, old))
    stale = run_as_image(command, tmp_path, HEALTH_FILE=str(health))
    assert stale.returncode == 1
    assert re.fullmatch(r"unhealthy: no contact with Discord for 2\d\d s \(more than 180 s\)\n", stale.stderr)
    assert env_of_image()["HEALTH_FILE"].startswith("/tmp/")


class Client:
    """What ``GatewayWatch`` reads of a discord.py client (an unsharded one)."""

    shard_count = None


async def test_the_health_file_is_written_only_while_in_touch_with_discord(tmp_path: Path) -> None:
    path = tmp_path / "health"
    watch = GatewayWatch(Client(), path, beat=0.01)  # type: ignore[arg-type]
    watch.start()
    try:
        await asyncio.sleep(0.05)
        assert not path.exists() and not watch.connected  # not connected yet
        await watch._up()
        assert watch.connected and path.exists()
        await watch._down()
        assert not watch.connected and watch.lost_at is not None
        old = time.time() - STALE - 60
        os.utime(path, (old, old))
        await asyncio.sleep(0.05)  # beats go on, but write nothing while the gateway is down
        assert not check_health(path)[0]
        await watch._up()
        assert check_health(path)[0] and watch.lost_at is None
    finally:
        watch.stop()


@pytest.mark.parametrize("name", [".env", "tests/", "devtools/", "*.db", "data/"])
def test_the_image_leaves_out_secrets_tests_and_data(name: str) -> None:
    assert name in (ROOT / ".dockerignore").read_text().split()

