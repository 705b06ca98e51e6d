"""JSON read strictly, with every failure as a phrase the caller puts after a file and line.

Python's ``json`` accepts a repeated key (the last one wins, silently), raises ``RecursionError`` on deeply
nested brackets and ``ValueError`` on integers of more than 4,300 digits; here each becomes ``JsonProblem``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


class JsonProblem(ValueError):
    """What is wrong with a JSON text, as a phrase (no file or line: the caller knows those)."""


class RepeatedKey(JsonProblem):
    """An object names one key twice: legal JSON text, but readers disagree on which value counts."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {json.dumps(key)} appears twice in one object")
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(object_pairs_hook=_unique)


# Set by JSONDecoder.__init__ (json.scanner.make_scanner) though typeshed does not declare it.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def loads(text: str) -> Any:
    """Parse ``text`` as JSON, refusing repeated keys; raise ``JsonProblem`` for anything unreadable."""
    # The scanner straight on the text when it starts with a value and ends with it (the usual JSONL line):
    # ``decode`` adds two Python-level calls and two whitespace matches per line, a third of a 16,000-line read.
    # Anything else, errors included, takes the full path, which says what is wrong.
    try:
        obj, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):
        pass
    else:
        # Trailing JSON whitespace is the \r of a Windows line ending, as json.loads allows.
        if end == len(text) or not text[end:].strip(" \t\r\n"):
            return obj
    try:
        return _DECODER.decode(text)
    except JsonProblem:
        raise
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise JsonProblem(f"{exc.msg} at {where}") from None
    except RecursionError:
        raise JsonProblem("its brackets nest too deeply to read") from None
    except ValueError:
        # int() refuses integers longer than sys.get_int_max_str_digits() (CVE-2020-10735); its message gives
        # a Python hint that means nothing to the writer of the file.
        raise JsonProblem("it holds a number with too many digits to read (over 4,300)") from None
