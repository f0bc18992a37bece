"""A fork server: a process that imports a program once and then starts it again and again by forking itself, so
that each start costs the program's run and not the second or more of imports a new interpreter pays (the tests
that kill and restart the bot dozens of times).

    python -m pokerdev.forks MODULE:FUNCTION

``FUNCTION(argv) -> exit code`` is the program (``pokerdev.launch:main``). The server reads one request a line on
stdin (JSON: ``args``, ``out``: the file the child's stdout goes to, ``err``: its stderr's, or null to share the
server's, ``cwd``, ``env``), forks a child that runs ``FUNCTION(args)`` there, and prints ``child PID`` at once and
``ended PID EXIT_CODE`` when that child is gone (as ``subprocess`` reports it: ``-SIGNAL`` for a kill). Children run
side by side. When stdin ends, the children still running are killed and the server exits.

A child is a process like any other to a signal, a kill or a file lock; it only skips the imports. ``ForkServer`` is
the client, and ``ForkedProcess`` an ``asyncio.subprocess.Process`` look-alike for one child.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import selectors
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

Program = Callable[[list[str]], "int | None"]


def _run_child(program: Program, request: dict[str, Any]) -> None:
    """In the forked child: take the request's files, folder and environment, run the program, exit with its code."""
    code = 1
    try:
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_APPEND), 1)
        if request.get("err") is not None:
            os.dup2(os.open(request["err"], os.O_WRONLY | os.O_CREAT | os.O_APPEND), 2)
        os.chdir(request.get("cwd") or ".")
        if request.get("env") is not None:
            os.environ.clear()
            os.environ.update(request["env"])
        signal.signal(signal.SIGINT, signal.default_int_handler)
        result = program(list(request["args"]))
        code = 0 if result is None else int(result)
    except SystemExit as stop:
        if isinstance(stop.code, int) or stop.code is None:
            code = stop.code or 0
        else:
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def serve(program: Program) -> None:
    """Fork a child per request on stdin until stdin ends (see the module's docstring)."""
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ, None)
    children: dict[int, int] = {}  # pidfd -> pid
    pending = b""
    while True:
        for key, _ in selector.select():
            if key.data is not None:  # a child ended
                pidfd, pid = int(key.fd), int(key.data)
                selector.unregister(pidfd)
                os.close(pidfd)
                del children[pidfd]
                _, status = os.waitpid(pid, 0)
                print("ended", pid, os.waitstatus_to_exitcode(status), flush=True)
                continue
            chunk = os.read(0, 65536)
            if not chunk:  # the client is gone: so are its children
                for pid in children.values():
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                return
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    for pidfd in children:
                        os.close(pidfd)
                    _run_child(program, request)
                pidfd = os.pidfd_open(pid)
                children[pidfd] = pid
                selector.register(pidfd, selectors.EVENT_READ, pid)
                print("child", pid, flush=True)


class ForkServer:
    """The client of a fork server of ``target`` (``MODULE:FUNCTION``), started at once."""

    def __init__(self, target: str, *, env: Mapping[str, str] | None = None, stderr: IO[Any] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "pokerdev.forks", target], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
        self.codes: dict[int, int] = {}  # exit codes reported and not yet asked for

    def start(self, args: Sequence[str], *, out: Path | str, err: Path | str | None = None,
              cwd: Path | str | None = None, env: Mapping[str, str] | None = None) -> int:
        """Start a child running the program on ``args``; its pid."""
        assert self.proc.stdin is not None
        request = {"args": list(args), "out": str(out), "err": None if err is None else str(err),
                   "cwd": None if cwd is None else str(cwd), "env": None if env is None else dict(env)}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        while True:
            word, pid, *code = self._line()
            if word == "child":
                return int(pid)
            self.codes[pid] = code[0]

    def exit_code(self, pid: int) -> int:
        """How the child ``pid`` ended (blocks until the server reports it)."""
        while pid not in self.codes:
            word, ended, *code = self._line()
            if word == "ended":
                self.codes[ended] = code[0]
        return self.codes.pop(pid)

    def _line(self) -> list[Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server stopped (exit code {self.proc.wait()})")
        word, *numbers = line.split()
        return [word, *map(int, numbers)]

    def close(self) -> None:
        """Stop the server (and any child still running)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


class ForkedProcess:
    """A child of a fork server, with the part of ``asyncio.subprocess.Process``'s interface the tests use: ``pid``,
    ``returncode`` (set as soon as the child is gone), ``wait()``, ``send_signal()``, ``terminate()``, ``kill()``."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self.server = server
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()
        loop = asyncio.get_running_loop()
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone and reaped
            self._end()
            return

        def gone() -> None:
            loop.remove_reader(pidfd)
            os.close(pidfd)
            self._end()

        loop.add_reader(pidfd, gone)

    def _end(self) -> None:
        self.returncode = self.server.exit_code(self.pid)  # the server reaps it within moments of its end
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def warm() -> None:
    """Build once, for every child, what the bot builds on first use: the tables of every hand ranking."""
    from bot.poker import RANKINGS, evaluate, parse_cards

    for ranking in RANKINGS:
        evaluate(ranking, parse_cards("AsKd7h4c2s"))


def main(argv: Sequence[str] | None = None) -> None:
    [target] = sys.argv[1:] if argv is None else argv
    module, _, function = target.partition(":")
    program = getattr(importlib.import_module(module), function)
    warm()
    serve(program)


if __name__ == "__main__":
    main()
