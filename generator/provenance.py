"""Values that remember which config keys they came from, so the check can prove every number's origin.

A `Num` is a number from the config (or computed only from such numbers); a `Text` is a string from the
config or built from Nums. Templates receive nothing else that can print a digit. In check mode the renderer
wraps every Num and Text it prints in marker characters, and any digit left outside a marker was typed by hand.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, RootModel

Sources = frozenset[str]


def _merge(*values: object) -> Sources:
    out: set[str] = set()
    for value in values:
        if isinstance(value, Num | Text):
            out |= value.sources
    return frozenset(out)


def _raw(value: object) -> float:
    if isinstance(value, Num):
        return value.value
    if isinstance(value, int | float):
        return value
    raise TypeError(f"cannot combine a tracked number with {type(value).__name__}")


@dataclass(frozen=True, eq=False)
class Num:
    """Compares, orders and hashes by value alone, like the number it stands for: Num(3) == 3, and a Num is
    found in a set or dict of plain numbers. Sources are provenance, not identity."""

    value: float
    sources: Sources

    def __str__(self) -> str:
        return format_number(self.value)

    def _with(self, value: float, other: object) -> Num:
        return Num(value, _merge(self, other))

    def __add__(self, other: object) -> Num:
        return self._with(self.value + _raw(other), other)

    def __sub__(self, other: object) -> Num:
        return self._with(self.value - _raw(other), other)

    def __rsub__(self, other: object) -> Num:
        return self._with(_raw(other) - self.value, other)

    def __mul__(self, other: object) -> Num:
        return self._with(self.value * _raw(other), other)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Num:
        return self._with(self.value / _raw(other), other)

    def __rtruediv__(self, other: object) -> Num:
        return self._with(_raw(other) / self.value, other)

    def __pow__(self, other: object) -> Num:
        return self._with(self.value ** _raw(other), other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Num):
            return self.value == other.value
        if isinstance(other, int | float) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __hash__(self) -> int:
        # Equal numbers hash alike across int and float (hash(3) == hash(3.0)), so this agrees with __eq__.
        return hash(self.value)

    def __lt__(self, other: object) -> bool:
        return self.value < _raw(other)

    def __le__(self, other: object) -> bool:
        return self.value <= _raw(other)

    def __gt__(self, other: object) -> bool:
        return self.value > _raw(other)

    def __ge__(self, other: object) -> bool:
        return self.value >= _raw(other)

    def __int__(self) -> int:
        return int(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)


@dataclass(frozen=True, eq=False)
class Text:
    """Compares and hashes by its text alone, like the string it stands for."""

    text: str
    sources: Sources

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __add__(self, other: object) -> Text:
        return Text(self.text + str(other), _merge(self, other))


def format_number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10g}"


def num_max(*values: Num) -> Num:
    best = max(values, key=lambda n: n.value)
    return Num(best.value, _merge(*values))


class Tracked(Mapping[str, Any]):
    """A read-only view of a config model whose leaves come out as Num and Text tagged with their key."""

    def __init__(self, value: Any, key: str) -> None:
        self._value = value.root if isinstance(value, RootModel) else value
        self._key = key

    def _child(self, name: str | int) -> Any:
        value = self._value
        if isinstance(value, list):
            item = value[int(name)]
        elif isinstance(value, Mapping):
            item = value[name]
        else:
            item = getattr(value, str(name))
        if isinstance(name, int):
            key = f"{self._key}[{name}]"
        else:
            key = f"{self._key}.{name}" if self._key else name
        return track(item, key)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._child(name)
        except (KeyError, AttributeError):
            raise AttributeError(f"the config has no key {self._key}.{name}") from None

    def __getitem__(self, name: str | int) -> Any:
        return self._child(name)

    def __iter__(self) -> Iterator[Any]:
        value = self._value
        if isinstance(value, list):
            return (self._child(i) for i in range(len(value)))
        if isinstance(value, Mapping):
            return iter(value)
        return iter(type(value).model_fields)

    def __len__(self) -> int:
        value = self._value
        return len(value) if isinstance(value, Mapping | list) else len(type(value).model_fields)

    def items(self) -> Iterable[tuple[str, Any]]:  # type: ignore[override]  # a list view, not a set view
        return [(k, self._child(k)) for k in self]

    @property
    def key(self) -> str:
        return self._key

    @property
    def raw(self) -> Any:
        return self._value


def track(value: Any, key: str) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return Num(value, frozenset({key}))
    if isinstance(value, str | dt.date):
        return Text(str(value), frozenset({key}))
    if isinstance(value, BaseModel | Mapping | list):
        return Tracked(value, key)
    raise TypeError(f"config value at {key} has unexpected type {type(value).__name__}")
