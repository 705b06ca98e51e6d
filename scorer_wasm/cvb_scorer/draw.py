"""The seeded, stratified draw of a run's clips from a round's pool, and the pool exposure it implies.

Reproducible on any machine and in Pyodide:

- The seed material is the UTF-8 text ``"cvb-draw" NUL seed NUL window`` (window empty when none). Its SHA-256
  digest, read as a big-endian integer, seeds ``random.Random``: seeding with an integer is documented and
  identical on every platform and version (``hash()`` of a string is salted per process and never used).
- Tiers are visited in sorted order and each tier's clips are sorted by id, so neither the pool file's order
  nor any set or dict ordering changes the result.
- Within a tier, a partial Fisher-Yates shuffle picks the clips, each index ``i + int(rng.random() * (n - i))``:
  ``random()`` is the stream Python documents as reproducible (``sample``/``randrange`` have changed between
  versions).

The rounding rule: there is none. Each tier's count is its fraction times the draw size, computed exactly
(from the fraction's decimal text), and a count that is not a whole number is refused, because rounding would
quietly change the published proportions. A draw of 30 at a fifth easy and two fifths each normal and hard is
6, 12 and 12 clips.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


class DrawError(ValueError):
    """A pool or a draw specification the draw cannot use; the message says what and where."""


@dataclass(frozen=True)
class PoolClip:
    id: str
    tier: str


@dataclass(frozen=True)
class Draw:
    """A reconstructed draw: ``clips`` sorted by id."""

    seed: str
    window: str | None
    clips: tuple[PoolClip, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.clips)

    def to_json(self) -> str:
        return json.dumps(
            {
                "seed": self.seed,
                "window": self.window,
                "clips": [{"id": c.id, "tier": c.tier} for c in self.clips],
            },
            ensure_ascii=False,
            sort_keys=True,
        )


def _exact(fraction: float | str | Fraction) -> Fraction:
    # From the decimal text, so 0.2 is exactly a fifth rather than the nearest binary double.
    return fraction if isinstance(fraction, Fraction) else Fraction(str(fraction))


def stratum_counts(size: int, strata: Mapping[str, float | str | Fraction]) -> dict[str, int]:
    """Clips per tier for a draw of ``size``: exactly fraction x size each, or a DrawError saying why not."""
    if size <= 0:
        raise DrawError(f"A draw needs at least one clip; the draw size is {size}.")
    if not strata:
        raise DrawError("A draw needs at least one difficulty tier in its strata.")
    counts: dict[str, int] = {}
    for tier in sorted(strata):
        share = _exact(strata[tier])
        if share < 0 or share > 1:
            raise DrawError(
                f"Tier {tier!r} has the fraction {strata[tier]}; a fraction must be between 0 and 1."
            )
        clips = share * size
        if clips.denominator != 1:
            raise DrawError(
                f"Tier {tier!r} is {strata[tier]} of a draw of {size} clips, which is {float(clips):g} clips; "
                "fractions are not rounded, so choose fractions that give whole numbers of clips."
            )
        counts[tier] = int(clips)
    total = sum(counts.values())
    if total != size:
        shown = ", ".join(f"{t} {n}" for t, n in counts.items())
        raise DrawError(
            f"The strata give {total} clips ({shown}), not the draw size of {size}; they must add up to one."
        )
    return counts


def parse_pool(text: str, *, name: str, tiers: Sequence[str] | None = None) -> list[PoolClip]:
    """A pool file: JSON lines of ``{"id": ..., "tier": ...}``. ``tiers``, when given, are the only tiers allowed."""
    clips: list[PoolClip] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DrawError(f"{name} line {lineno} is not valid JSON ({exc.msg}).") from None
        if (
            not isinstance(row, dict)
            or not isinstance(row.get("id"), str)
            or not isinstance(row.get("tier"), str)
        ):
            raise DrawError(f'{name} line {lineno} must be an object with a string "id" and a string "tier".')
        if row["id"] in seen:
            raise DrawError(f"{name} line {lineno} repeats clip {row['id']!r} from line {seen[row['id']]}.")
        if tiers is not None and row["tier"] not in tiers:
            raise DrawError(
                f"{name} line {lineno} puts clip {row['id']!r} in tier {row['tier']!r}, which the draw does not "
                f"know; the tiers are {', '.join(sorted(tiers))}."
            )
        seen[row["id"]] = lineno
        clips.append(PoolClip(row["id"], row["tier"]))
    return clips


def seed_integer(seed: str, window: str | None) -> int:
    material = "\x00".join(("cvb-draw", seed, window or "")).encode("utf-8")
    return int.from_bytes(hashlib.sha256(material).digest(), "big")


def _by_tier(pool: Sequence[PoolClip], counts: Mapping[str, int]) -> dict[str, list[PoolClip]]:
    by_tier: dict[str, list[PoolClip]] = {tier: [] for tier in counts}
    for clip in pool:
        if clip.tier not in by_tier:
            raise DrawError(
                f"Clip {clip.id!r} is in tier {clip.tier!r}, which the draw's strata do not name; "
                f"the tiers are {', '.join(sorted(counts))}."
            )
        by_tier[clip.tier].append(clip)
    for tier, need in counts.items():
        have = len(by_tier[tier])
        if have < need:
            raise DrawError(
                f"The pool has {have} {tier} clip(s), but a draw takes {need}; add {tier} clips to the pool "
                "or lower that tier's share."
            )
    return by_tier


def draw(
    pool: Sequence[PoolClip],
    *,
    size: int,
    strata: Mapping[str, float | str | Fraction],
    seed: str,
    window: str | None = None,
) -> Draw:
    """The clips a run with this seed and window is scored on (see the module docstring for the construction)."""
    counts = stratum_counts(size, strata)
    by_tier = _by_tier(pool, counts)
    rnd = random.Random(seed_integer(seed, window)).random
    chosen: list[PoolClip] = []
    for tier in sorted(counts):
        items = sorted(by_tier[tier], key=lambda c: c.id)
        n = len(items)
        for i in range(counts[tier]):
            j = i + int(rnd() * (n - i))
            items[i], items[j] = items[j], items[i]
        chosen.extend(items[: counts[tier]])
    return Draw(seed, window, tuple(sorted(chosen, key=lambda c: c.id)))


def draw_reference(
    pool: Sequence[PoolClip],
    *,
    size: int,
    strata: Mapping[str, float | str | Fraction],
    seed: str,
    window: str | None = None,
) -> Draw:
    """The same draw spelled out plainly (build the whole shuffled list per tier), to test ``draw`` against."""
    counts = stratum_counts(size, strata)
    by_tier = _by_tier(pool, counts)
    rng = random.Random(seed_integer(seed, window))
    chosen: list[PoolClip] = []
    for tier in sorted(counts):
        remaining = sorted(by_tier[tier], key=lambda c: c.id)
        picked: list[PoolClip] = []
        for _ in range(counts[tier]):
            # Position i + k of the partially shuffled list is k places into what is not yet picked.
            k = int(rng.random() * len(remaining))
            picked.append(remaining[k])
            # Fisher-Yates moves the element at the front into the picked slot: mirror that exactly.
            remaining[k] = remaining[0]
            remaining = remaining[1:]
        chosen.extend(picked)
    return Draw(seed, window, tuple(sorted(chosen, key=lambda c: c.id)))


@dataclass(frozen=True)
class Exposure:
    """Expected share of the pool an entrant has seen after ``runs`` independent draws, per tier and overall."""

    share: float
    per_tier: Mapping[str, float]
    assumed_proportional_pool: bool


def expected_exposure(
    *,
    size: int,
    strata: Mapping[str, float | str | Fraction],
    runs: int,
    pool_size: int | None = None,
    pool_tiers: Mapping[str, int] | None = None,
) -> Exposure:
    """Exact expected share of the pool seen after ``runs`` draws with fresh seeds.

    A clip of tier t (pool n_t, k_t drawn per run) is missed by one run with probability 1 - k_t/n_t, so by all
    runs with (1 - k_t/n_t)^runs; the expected share seen is sum_t n_t (1 - (1 - k_t/n_t)^runs) / N. When only the
    pool's total is known (``pool_size``), the tiers are assumed to hold the strata's shares of it, which makes
    every k_t/n_t equal size/N and the share 1 - (1 - size/N)^runs.
    """
    if runs < 0:
        raise DrawError(f"The number of runs cannot be negative; got {runs}.")
    counts = stratum_counts(size, strata)
    proportional = pool_tiers is None
    if pool_tiers is None:
        if pool_size is None:
            raise DrawError("Give the pool's size or its clips per tier to compute the exposure.")
        tiers = {t: _exact(strata[t]) * pool_size for t in counts}
    else:
        unknown = sorted(set(pool_tiers) - set(counts))
        if unknown:
            raise DrawError(
                f"The pool has tier(s) {', '.join(unknown)}, which the draw's strata do not name."
            )
        tiers = {t: Fraction(pool_tiers.get(t, 0)) for t in counts}
    for tier, n in tiers.items():
        if n < counts[tier]:
            raise DrawError(
                f"The pool has {float(n):g} {tier} clip(s), but a draw takes {counts[tier]}; the pool is too small."
            )
    per_tier = {t: 1 - (1 - Fraction(counts[t]) / n) ** runs if n else Fraction(0) for t, n in tiers.items()}
    total = sum(tiers.values(), Fraction(0))
    share = sum((tiers[t] * per_tier[t] for t in tiers), Fraction(0)) / total
    return Exposure(float(share), {t: float(v) for t, v in per_tier.items()}, proportional)


def draw_text(result: Draw) -> str:
    """The draw as the CLI prints it: a header, then one clip per line with its tier."""
    counts: dict[str, int] = {}
    for clip in result.clips:
        counts[clip.tier] = counts.get(clip.tier, 0) + 1
    window = f", window {result.window}" if result.window else ""
    tiers = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
    lines = [f"Draw for seed {result.seed}{window}: {len(result.clips)} clips ({tiers})."]
    width = max((len(c.id) for c in result.clips), default=0)
    lines += [f"{c.id.ljust(width)}  {c.tier}" for c in result.clips]
    return "\n".join(lines) + "\n"
