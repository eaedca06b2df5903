"""Running a command at a real terminal (a pseudo-terminal), for the tests of what only a terminal shows: Ctrl-C,
Ctrl-D, the width of the score sheet."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time
from pathlib import Path

CTRL_C, CTRL_D = "\x03", "\x04"
"""Ctrl-C and Ctrl-D as a terminal sends them: after either, no prompt is waited for."""


def at_terminal(args: list[str], keys: list[str], cwd: Path, *, command: str = "score",
                columns: int | None = None) -> tuple[str, int]:
    """Run ``mizerka COMMAND ARGS`` at a pseudo-terminal (*columns* wide, if given), type *keys* one answer at a time;
    (its output, exit status)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command itself
        os.chdir(cwd)
        # the width is the terminal's: no COLUMNS or LINES (GNU readline, loaded by the test runner, exports them into
        # the process's environment behind os.environ's back, so the child gets an environment of its own)
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")} | {"PYTHONIOENCODING": "utf-8"}
        if columns is not None:
            fcntl.ioctl(pty.STDOUT_FILENO, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        os.execve(sys.executable, [sys.executable, "-c", "from mizerka.cli import main; main()", command, *args], env)
    output = b""

    def read_for(seconds: float, *, prompt: bool) -> bool:
        """Read for at most *seconds*: with *prompt*, until a prompt waits (``: `` and nothing more for a while)."""
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.3)
            if not ready:
                if prompt and output.endswith(b": "):
                    return True
                continue
            try:
                data = os.read(fd, 4096)
            except OSError:  # the child has ended
                return False
            if not data:
                return False
            output += data
        return True

    read_for(60, prompt=True)
    for key in keys:
        os.write(fd, key.encode())
        if not read_for(30, prompt=key not in (CTRL_C, CTRL_D)):
            break
    read_for(10, prompt=False)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return output.decode("utf-8", "replace"), os.waitstatus_to_exitcode(status)
