"""A small disk of the test's own (a tmpfs mounted under ``tmp_path``): filled to the last byte to stand for a full
disk, then emptied, and remounted read-only and back. SQLite sees the kernel's real answers (ENOSPC, EROFS).

Mounting needs root (CAP_SYS_ADMIN). Without it the tests that need a disk are skipped with the reason, except
in CI (``CI=true``), where a missing disk fails the run: CI runs as root.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FILLER = "filler"


class SmallDisk:
    """A tmpfs of ``size`` bytes mounted at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fill(self) -> int:
        """Write a filler file until the disk is full (the kernel says ENOSPC); the bytes written."""
        written = 0
        block = b"\0" * 4096
        with (self.path / FILLER).open("ab", buffering=0) as out:
            for size in (len(block), 512, 1):
                while True:
                    try:
                        written += out.write(block[:size])
                    except OSError as error:
                        if error.errno != errno.ENOSPC:
                            raise
                        break
        return written

    def free(self) -> None:
        """Remove the filler: the disk has room again."""
        (self.path / FILLER).unlink(missing_ok=True)

    def read_only(self, on: bool = True) -> None:
        """Remount the disk read-only (or writable again)."""
        _run("mount", "-o", f"remount,{'ro' if on else 'rw'}", str(self.path))

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False, capture_output=True)


def _run(*command: str) -> None:
    done = subprocess.run(list(command), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise OSError(f"{' '.join(command)}: {done.stderr.strip() or done.returncode}")


def mount_small_disk(path: Path, size: str = "4m") -> SmallDisk:
    """Mount a tmpfs of ``size`` at ``path`` (skipped where this user cannot mount, failed in CI)."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(path))
    except OSError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must be able to mount a small tmpfs (it runs as root): {error}")
        pytest.skip(f"needs a small disk of its own (a tmpfs; mounting needs root): {error}")
    return SmallDisk(path)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """A 4 MB tmpfs under ``tmp_path`` (unmounted after the test)."""
    disk = mount_small_disk(tmp_path / "disk")
    try:
        yield disk
    finally:
        disk.unmount()
