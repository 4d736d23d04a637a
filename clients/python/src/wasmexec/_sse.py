"""Server-Sent Events: parsing and the rules for resuming a stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional

__all__ = ["SSE", "SSEParser", "StreamPolicy"]


@dataclass
class SSE:
    event: str
    data: str
    id: Optional[str] = None


class SSEParser:
    """Feed it lines (without their line ending); it yields complete events."""

    def __init__(self) -> None:
        self._event = ""
        self._data: List[str] = []
        self._id: Optional[str] = None

    def feed(self, line: str) -> Optional[SSE]:
        if line == "":
            if not self._event and not self._data:
                self._id = None
                return None
            e = SSE(self._event or "message", "\n".join(self._data), self._id)
            self._event, self._data, self._id = "", [], None
            return e
        if line.startswith(":"):
            return None
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id":
            self._id = value
        return None

    def parse(self, lines: Iterable[str]) -> Iterator[SSE]:
        for line in lines:
            e = self.feed(line.rstrip("\r\n"))
            if e is not None:
                yield e


@dataclass
class StreamPolicy:
    """How a stream resumes after its connection drops: at once the first
    time, then after ``backoff`` seconds doubling up to ``max_backoff``; it
    gives up (raising) after ``retries`` failures without an event in
    between (0: never resume)."""

    retries: int = 5
    backoff: float = 0.1
    max_backoff: float = 5.0

    def delay(self, failures: int) -> float:
        if failures <= 1:
            return 0.0
        return float(min(self.backoff * 2.0 ** (failures - 2), self.max_backoff))
