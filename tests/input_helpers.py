"""Typed input for a command run by click's ``CliRunner`` that changes the world as the command starts reading it."""

from __future__ import annotations

import io
from collections.abc import Callable


class InputThen(io.BytesIO):
    """The lines *data*; *then* runs before each read of them (it must be safe to run again), so that it happens
    after the checks a command makes at its start and before the first answer is taken: a save file made read-only,
    a folder removed (a USB stick pulled out during the match)."""

    def __init__(self, data: bytes, then: Callable[[], None]) -> None:
        super().__init__(data)
        self.then = then

    def read(self, size: int | None = -1) -> bytes:
        if size != 0:  # click asks read(0) to see that the stream is binary, before the command runs
            self.then()
        return super().read(size)

    def read1(self, size: int | None = -1) -> bytes:
        self.then()
        return super().read1(size)

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        self.then()
        return super().readinto(buffer)

    def readline(self, size: int | None = -1) -> bytes:
        self.then()
        return super().readline(size)
