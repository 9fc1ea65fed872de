"""The one door of every headless command's output: text for people shows control characters
escaped, whatever command printed it; JSON for programs is written exactly as json.dumps made it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from ..core.basics.visible import visible, visible_lines


class VisibleStream:
    """A text stream that escapes what would act on the terminal (ESC, BEL, C1, bidi, surrogates)
    before writing; line breaks and tabs pass. Every other attribute is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.raw_stream = stream

    def write(self, text: str) -> int:
        self.raw_stream.write(visible_lines(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw_stream, name)


def _unwrapped(stream: Any) -> Any:
    return stream.raw_stream if isinstance(stream, VisibleStream) else stream


@contextmanager
def visible_output() -> Iterator[None]:
    """While inside, print() to stdout or stderr (argparse's messages too) escapes tree text."""
    saved = sys.stdout, sys.stderr
    sys.stdout = VisibleStream(_unwrapped(sys.stdout))
    sys.stderr = VisibleStream(_unwrapped(sys.stderr))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def say(line: str) -> None:
    """Print one line whatever it holds: a newline or carriage return in a file name or title
    shows as `\\n` or `\\r` instead of splitting the line (the stream keeps line breaks, since
    it cannot tell a name's break from the command's own)."""
    print(visible(line))


def print_json(payload: Any, **options: Any) -> None:
    """JSON on stdout as json.dumps writes it: its escapes already keep control characters out
    (DEL aside, which moves nothing), and escaping again would change the strings it holds."""
    stream = _unwrapped(sys.stdout)
    stream.write(json.dumps(payload, indent=2, **options) + "\n")
