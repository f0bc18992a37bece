"""A throwaway PostgreSQL server for the tests and the benchmarks, from the machine's own PostgreSQL (Debian's
``postgresql`` package: ``/usr/lib/postgresql/*/bin``), in a temporary folder, on a free port of 127.0.0.1.

    python -m pokerdev.pgserver run -- COMMAND [ARGS...]   start a server, run COMMAND with POKER_TEST_PG set to its
                                                           URL, stop the server and remove its folder, whatever
                                                           COMMAND did; COMMAND's exit status
    python -m pokerdev.pgserver start DIR                  start a server in DIR (kept running); print its URL
    python -m pokerdev.pgserver stop DIR                   stop it and remove DIR

Without PostgreSQL installed, ``run`` says so and runs COMMAND without the variable (the PostgreSQL tests are then
skipped, with that reason), unless ``CI=true``: then it fails (exit 2), since CI must run them. ``initdb`` refuses
to run as root, so as root the server runs as the ``postgres`` user (or ``nobody``), which owns its folder.

The server is for tests only: no password (trust on 127.0.0.1), no fsync. Its URL names the database
``postgres``; the tests make a database of their own per test (``tests/pg.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PgServer", "find_bindir", "throwaway_server"]

VARIABLE = "POKER_TEST_PG"
USER = "poker"
SETTINGS = {  # a server for tests: fast, not durable
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "64MB",
}


class NoPostgres(Exception):
    """PostgreSQL's server programs are not installed here; ``str()`` says what to install."""


def find_bindir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: the newest of ``/usr/lib/postgresql/*/bin``, else the PATH's."""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if versions:
        return Path(versions[-1]).parent
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    raise NoPostgres("PostgreSQL is not installed (no initdb): apt-get install postgresql")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as when we are root (initdb refuses root); None: ourselves."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise NoPostgres("running as root and no postgres or nobody user to run the server as (initdb refuses root)")


@dataclass
class PgServer:
    """A server in ``folder`` (data, socket and log), on ``port``."""

    folder: Path
    port: int
    bindir: Path

    @property
    def url(self) -> str:
        """The URL of its ``postgres`` database."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def _run(self, *command: str) -> None:
        user = _server_user()
        result = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, check=False,
                                user=None if user is None else user.pw_uid,
                                group=None if user is None else user.pw_gid,
                                extra_groups=None if user is None else [])
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:2])} failed ({result.returncode}): "
                               f"{(result.stderr or result.stdout).strip()[-2000:]}")

    def initdb(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")

    def start(self) -> None:
        options = " ".join(f"-c {name}={value}" for name, value in {
            **SETTINGS, "port": str(self.port), "unix_socket_directories": str(self.folder)}.items())
        self._run(str(self.bindir / "pg_ctl"), "start", "-D", str(self.data), "-w", "-t", "60", "-l", str(self.log),
                  "-o", options)

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove its folder."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run(str(self.bindir / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_server(folder: Path | None = None) -> PgServer:
    """Make a new cluster in ``folder`` (default: a new temporary one) and start it on a free port."""
    bindir = find_bindir()
    user = _server_user()
    made = Path(tempfile.mkdtemp(prefix="poker-pg-")) if folder is None else folder
    made.mkdir(parents=True, exist_ok=True)
    made.chmod(0o700)
    if user is not None:
        os.chown(made, user.pw_uid, user.pw_gid)
    for attempt in range(5):  # another program may take the free port between the probe and the start
        server = PgServer(made, _free_port(), bindir)
        try:
            if not server.data.exists():
                server.initdb()
            server.start()
            return server
        except RuntimeError:
            if attempt == 4:
                shutil.rmtree(made, ignore_errors=True)
                raise
            time.sleep(0.2)
    raise AssertionError("unreachable")


@contextlib.contextmanager
def throwaway_server() -> Iterator[PgServer]:
    """A server for the block, stopped and removed after it whatever happens."""
    server = start_server()
    try:
        yield server
    finally:
        server.stop()


def _run_command(command: Sequence[str]) -> int:
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    try:
        server = start_server()
    except (NoPostgres, RuntimeError) as error:
        if ci:
            print(f"pgserver: no PostgreSQL server for the tests ({error}); CI runs them: failing", file=sys.stderr)
            return 2
        print(f"pgserver: no PostgreSQL server ({error}); the PostgreSQL tests will be skipped", file=sys.stderr)
        return subprocess.call(command)
    print(f"pgserver: a throwaway PostgreSQL on 127.0.0.1:{server.port} ({server.folder})", file=sys.stderr)
    child: subprocess.Popen[bytes] | None = None

    def forward(signum: int, _frame: object) -> None:  # a stop of the run stops the command, then the server
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        child = subprocess.Popen(command, env={**os.environ, VARIABLE: server.url})
        return child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pokerdev.pgserver", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="action", required=True)
    run = commands.add_parser("run", help="run a command with a throwaway server")
    run.add_argument("command", nargs=argparse.REMAINDER)
    start = commands.add_parser("start", help="start a server in a folder and print its URL")
    start.add_argument("folder", type=Path)
    stop = commands.add_parser("stop", help="stop the server of a folder and remove the folder")
    stop.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.action == "run":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        if not command:
            parser.error("run needs a command")
        return _run_command(command)
    if args.action == "start":
        server = start_server(args.folder.absolute())
        (server.folder / "url").write_text(server.url + "\n")
        print(server.url)
        return 0
    folder = args.folder.absolute()
    url = (folder / "url").read_text().strip() if (folder / "url").exists() else ""
    port = int(url.rsplit(":", 1)[1].split("/")[0]) if url else 0
    PgServer(folder, port, find_bindir()).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
