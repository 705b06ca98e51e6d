"""Rules that span several keys or files. Pure: Config in, findings out."""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from generator.config.errors import ConfigProblem, KeyPath
from generator.config.localise import TBA_TERM, zh_text_problems
from generator.config.models import PartialDate, PluralText
from generator.config.source import SourceFile
from generator.config.validated import Config

WEIGHT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Finding:
    file: str
    key: KeyPath
    message: str

    def located(self, sources: Mapping[str, SourceFile]) -> ConfigProblem:
        source = sources[self.file]
        return ConfigProblem(source.path, source.line_of(self.key), self.key, self.message)


def find_problems(config: Config) -> list[Finding]:
    # A misspelt pillar in scoring.yaml makes every other file's pillar unknown; say only what is wrong.
    renamed = list(_misspelt_pillars(config))
    if renamed:
        return renamed
    return [
        *_pillars(config),
        *_weights(config),
        *_floor_history(config),
        *_draw(config),
        *_audio(config),
        *_builtin_clips(config),
        *_issues(config),
        *_rounds(config),
        *_failures(config),
        *_endpointing(config),
        *_frames(config),
        *_band_example(config),
        *_glossary(config),
    ]


_CJK_SPACE = re.compile(
    r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef] +[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
)


def _glossary(config: Config) -> Iterator[Finding]:
    glossary = config.glossary
    if TBA_TERM not in glossary.terms:
        yield Finding(
            "glossary.yaml",
            ("terms",),
            f"the term {TBA_TERM} is missing; the Chinese edition needs its wording.",
        )
    seen: dict[str, str] = {}
    for term_id, term in glossary.terms.items():
        if term.zh in seen:
            yield Finding(
                "glossary.yaml",
                ("terms", term_id, "zh"),
                f"{term.zh!r} is also the Chinese of {seen[term.zh]}; two terms must not read the same.",
            )
        seen.setdefault(term.zh, term_id)
    avoided = {word: f"{use!r}" for word, use in glossary.avoid.items()}
    for term_id, term in glossary.terms.items():
        for word in term.avoid:
            avoided.setdefault(word, f"{term.zh!r} (terms.{term_id})")
    for term_id, term in glossary.terms.items():
        for word, use in avoided.items():
            if word in term.zh:
                yield Finding(
                    "glossary.yaml", ("terms", term_id, "zh"), f"{word!r} is to be avoided; write {use}."
                )
    chinese: list[tuple[KeyPath, str]] = [(("zh_text", key), text) for key, text in glossary.zh_text.items()]
    chinese += [(("interface", key, "zh"), pair.zh) for key, pair in glossary.interface.items()]
    chinese += list(_zh_view_texts(glossary.zh_view))
    for where, text in chinese:
        for word, use in avoided.items():
            if word in text:
                yield Finding("glossary.yaml", where, f"{word!r} is to be avoided; write {use}.")
    for key, text in glossary.zh_text.items():
        if _CJK_SPACE.search(text):
            # A line break in a folded YAML block becomes a space, which Chinese never puts between characters.
            yield Finding(
                "glossary.yaml",
                ("zh_text", key),
                "a space stands between Chinese characters; write the text on one line.",
            )
    for key, message in zh_text_problems(config):
        yield Finding("glossary.yaml", ("zh_text", key), message)
    for where, text in _zh_view_texts(glossary.zh_view):
        if _CJK_SPACE.search(text):
            yield Finding("glossary.yaml", where, "a space stands between Chinese characters; remove it.")
    e2e = config.scoring.pillars.get("e2e")
    for group in ("machine_weights", "rated_weights"):
        for name in getattr(e2e, group, None) or {}:
            if name not in glossary.terms:
                yield Finding(
                    "scoring.yaml",
                    ("pillars", "e2e", group, name),
                    f"the measure {name!r} has no entry in glossary.yaml's terms; add its Chinese name there.",
                )
    if config.rounds.draw.seeded_per not in glossary.terms:
        yield Finding(
            "rounds.yaml",
            ("draw", "seeded_per"),
            f"{config.rounds.draw.seeded_per!r} has no entry in glossary.yaml's terms; add its Chinese name there.",
        )
    for tier in config.rounds.draw.strata:
        if tier not in glossary.terms:
            yield Finding(
                "rounds.yaml",
                ("draw", "strata", tier),
                f"the tier {tier!r} has no entry in glossary.yaml's terms; add its Chinese name there.",
            )


def _zh_view_texts(zh_view: Mapping[str, str | PluralText]) -> Iterator[tuple[KeyPath, str]]:
    for key, value in zh_view.items():
        if isinstance(value, str):
            yield ("zh_view", key), value
        else:
            yield ("zh_view", key, "one"), value.one
            yield ("zh_view", key, "other"), value.other


def _sums_to_one(values: Mapping[str, float]) -> bool:
    return math.isclose(sum(values.values()), 1.0, abs_tol=WEIGHT_TOLERANCE)


def _percent_list(values: Mapping[str, float]) -> str:
    listed = ", ".join(f"{name} {value:g}" for name, value in values.items())
    return f"{listed} (sum {sum(values.values()):g})"


def _misspelt_pillars(config: Config) -> Iterator[Finding]:
    """A pillar scoring.yaml defines that no other file names, beside a name the others use and scoring.yaml
    lacks, spelt nearly alike: the definition is the one line that is wrong."""
    known = set(config.scoring.pillars)
    used: dict[str, set[str]] = {}
    for name in config.protocol.clock:
        used.setdefault(name, set()).add("protocol.yaml")
    for frame in config.frames.root.values():
        for pillar in frame.pillars:
            used.setdefault(pillar, set()).add("frames.yaml")
    for failure in config.failures.root:
        for pillar in failure.pillars or ():
            used.setdefault(pillar, set()).add("failures.yaml")
    missing = sorted(set(used) - known)
    for name in sorted(known - set(used)):
        close = difflib.get_close_matches(name, missing, n=1, cutoff=0.6)
        if close:
            files = ", ".join(sorted(used[close[0]]))
            yield Finding(
                "scoring.yaml",
                ("pillars", name),
                f"pillar {name!r} is named nowhere else, and {files} call it {close[0]!r}; correct the spelling.",
            )


def _pillars(config: Config) -> Iterator[Finding]:
    known = set(config.scoring.pillars)
    clock = set(config.protocol.clock)
    for name in sorted(clock - known):
        yield Finding(
            "protocol.yaml", ("clock", name), f"unknown pillar {name!r}; known pillars: {sorted(known)}."
        )
    for name in sorted(known - clock):
        yield Finding(
            "protocol.yaml", ("clock",), f"pillar {name!r} has no clock entry; say where its clock starts."
        )
    for frame_name, frame in config.frames.root.items():
        for index, pillar in enumerate(frame.pillars):
            if pillar not in known:
                yield Finding(
                    "frames.yaml",
                    (frame_name, "pillars", index),
                    f"unknown pillar {pillar!r}; known pillars: {sorted(known)}.",
                )
    for index, failure in enumerate(config.failures.root):
        for position, pillar in enumerate(failure.pillars or ()):
            if pillar not in known:
                yield Finding(
                    "failures.yaml",
                    (index, "pillars", position),
                    f"unknown pillar {pillar!r}; known pillars: {sorted(known)}.",
                )
    if not any(p.core for p in config.scoring.pillars.values()):
        yield Finding(
            "scoring.yaml", ("pillars",), "no pillar is marked core; the Core Score needs at least one."
        )


def _weights(config: Config) -> Iterator[Finding]:
    pillars = config.scoring.pillars
    weights = {name: p.weight for name, p in pillars.items()}
    if not _sums_to_one(weights):
        yield Finding(
            "scoring.yaml",
            ("pillars",),
            f"pillar weights must add up to 1; they are {_percent_list(weights)}.",
        )
    for name, pillar in pillars.items():
        for group in ("sub_weights", "machine_weights", "rated_weights"):
            values = getattr(pillar, group)
            if values is not None and not _sums_to_one(values):
                yield Finding(
                    "scoring.yaml",
                    ("pillars", name, group),
                    f"these weights must add up to 1; they are {_percent_list(values)}.",
                )
        if pillar.latency_ms is not None and pillar.latency_ms.flat_below >= pillar.latency_ms.zero_at:
            yield Finding(
                "scoring.yaml",
                ("pillars", name, "latency_ms", "flat_below"),
                "the flat region must end before the latency where the score reaches zero.",
            )
        cap = pillar.no_tone_cap_rating
        scale = config.scoring.rating_scale
        if cap is not None and not scale.min <= cap <= scale.max:
            yield Finding(
                "scoring.yaml",
                ("pillars", name, "no_tone_cap_rating"),
                f"the cap must lie on the rating scale {scale.min}–{scale.max}.",
            )
    tts = pillars.get("tts")
    if tts is not None and tts.no_tone_cap_rating is None:
        # The methodology states the capped score; derive.py computes it from this rating.
        yield Finding(
            "scoring.yaml",
            ("pillars", "tts", "no_tone_cap_rating"),
            "the speech pillar needs the rating its score is capped at when no tone survives; add it.",
        )
    for scale_name in ("score_scale", "rating_scale"):
        scale = getattr(config.scoring, scale_name)
        if scale.min >= scale.max:
            yield Finding("scoring.yaml", (scale_name, "max"), "the maximum must be above the minimum.")


def _sort_key(value: PartialDate) -> tuple[int, int, int] | None:
    if isinstance(value, dt.date):
        return (value.year, value.month, value.day)
    if value == "to be announced":
        return None
    year, month = value.split("-")
    return (int(year), int(month), 0)


def _floor_history(config: Config) -> Iterator[Finding]:
    history = config.scoring.error_rate_floor_history
    previous: tuple[int, int, int] | None = None
    for index, entry in enumerate(history):
        key = _sort_key(entry.effective_from)
        if key is not None:
            if previous is not None and key <= previous:
                yield Finding(
                    "scoring.yaml",
                    ("error_rate_floor_history", index, "effective_from"),
                    "the floor history must be in date order, oldest first; this entry is dated before the one above.",
                )
            previous = key
    current = history[-1].scoring_version
    if current != config.scoring.current_scoring_version:
        yield Finding(
            "scoring.yaml",
            ("error_rate_floor_history", len(history) - 1, "scoring_version"),
            f"the last floor is the one in force, so its scoring version must be "
            f"{config.scoring.current_scoring_version!r} (current_scoring_version); it is {current!r}.",
        )


def _draw(config: Config) -> Iterator[Finding]:
    rounds = config.rounds
    if rounds.draw.size > rounds.pool_size:
        yield Finding(
            "rounds.yaml",
            ("draw", "size"),
            f"a draw of {rounds.draw.size} clips cannot come from a pool of {rounds.pool_size}.",
        )
    if rounds.held_out_size >= rounds.pool_size:
        yield Finding(
            "rounds.yaml",
            ("held_out_size",),
            f"{rounds.held_out_size} held-out clips must be fewer than the pool of {rounds.pool_size} they are "
            "kept out of.",
        )
    strata = rounds.draw.strata
    if not _sums_to_one(strata):
        yield Finding(
            "rounds.yaml",
            ("draw", "strata"),
            f"the strata must add up to the whole draw; they are {_percent_list(strata)}.",
        )
    for tier, fraction in strata.items():
        clips = fraction * rounds.draw.size
        if not math.isclose(clips, round(clips), abs_tol=1e-9):
            yield Finding(
                "rounds.yaml",
                ("draw", "strata", tier),
                f"{fraction:g} of a {rounds.draw.size}-clip draw is {clips:g} clips; each tier needs a whole number.",
            )


def _audio(config: Config) -> Iterator[Finding]:
    audio = config.protocol.audio
    expected = audio.sample_rate_hz * audio.channels * (audio.sample_bits // 8) * audio.frame_ms / 1000
    if audio.frame_bytes != expected:
        yield Finding(
            "protocol.yaml",
            ("audio", "frame_bytes"),
            f"{audio.frame_ms} ms of {audio.sample_rate_hz} Hz, {audio.channels}-channel, {audio.sample_bits}-bit "
            f"audio is {expected:g} bytes, not {audio.frame_bytes}.",
        )


def _builtin_clips(config: Config) -> Iterator[Finding]:
    texts = config.protocol.builtin_clips.texts
    seen: set[str] = set()
    for index, clip in enumerate(texts):
        if clip.id in seen:
            yield Finding(
                "protocol.yaml",
                ("builtin_clips", "texts", index, "id"),
                f"the clip id {clip.id!r} is used twice.",
            )
        seen.add(clip.id)
    wanted = config.protocol.connection_test.clips
    if len(texts) < wanted:
        yield Finding(
            "protocol.yaml",
            ("builtin_clips", "texts"),
            f"the connection test takes the {wanted} shortest built-in clips, and only {len(texts)} are listed.",
        )


def _issues(config: Config) -> Iterator[Finding]:
    issues = config.platform.issues
    for index in range(1, len(issues)):
        if issues[index].issued <= issues[index - 1].issued:
            yield Finding(
                "platform.yaml",
                ("issues", index, "issued"),
                "issues must be listed oldest first, each dated after the one above.",
            )
    latest = issues[-1]
    if latest.protocol != config.protocol.version:
        yield Finding(
            "platform.yaml",
            ("issues", len(issues) - 1, "protocol"),
            f"the newest issue names protocol {latest.protocol!r} but protocol.yaml is at {config.protocol.version!r}; "
            f"put {latest.protocol!r} back and cut the bump as an issue: cvb issue new --protocol "
            f"{config.protocol.version} --date YYYY-MM-DD --summary '...'.",
        )
    if latest.scoring_version != config.scoring.current_scoring_version:
        yield Finding(
            "platform.yaml",
            ("issues", len(issues) - 1, "scoring_version"),
            f"the newest issue names scoring version {latest.scoring_version!r} but scoring.yaml is at "
            f"{config.scoring.current_scoring_version!r}; put {latest.scoring_version!r} back and cut the bump as "
            f"an issue: cvb issue new --scoring-version {config.scoring.current_scoring_version} --date YYYY-MM-DD "
            "--summary '...'.",
        )


def _rounds(config: Config) -> Iterator[Finding]:
    seen: set[str] = set()
    for index, entry in enumerate(config.platform.rounds):
        if entry.id in seen:
            yield Finding("platform.yaml", ("rounds", index, "id"), f"round id {entry.id!r} is used twice.")
        seen.add(entry.id)
        if (
            isinstance(entry.opens, dt.date)
            and isinstance(entry.closes, dt.date)
            and entry.closes < entry.opens
        ):
            yield Finding(
                "platform.yaml", ("rounds", index, "closes"), "a round cannot close before it opens."
            )
    standing = [entry.id for entry in config.platform.rounds if entry.standing]
    if len(standing) != 1:
        named = ", ".join(standing) if standing else "none"
        yield Finding(
            "platform.yaml",
            ("rounds",),
            f"exactly one round must have `standing: true` (the round the published standings count); "
            f"found {named}.",
        )


def _failures(config: Config) -> Iterator[Finding]:
    seen: set[str] = set()
    for index, failure in enumerate(config.failures.root):
        if failure.code in seen:
            yield Finding("failures.yaml", (index, "code"), f"failure code {failure.code!r} is listed twice.")
        seen.add(failure.code)


def _endpointing(config: Config) -> Iterator[Finding]:
    release = config.endpointing.release
    shipped, held_out = release.shipped_ids, release.held_out_ids
    for name, ids in (("shipped_ids", shipped), ("held_out_ids", held_out)):
        if len(set(ids)) != len(ids):
            yield Finding("endpointing.yaml", ("release", name), "an id is listed twice.")
    overlap = sorted(set(shipped) & set(held_out))
    if overlap:
        yield Finding(
            "endpointing.yaml", ("release", "held_out_ids"), f"ids {overlap} are both shipped and held out."
        )
    if len(set(shipped) | set(held_out)) != release.conversations:
        yield Finding(
            "endpointing.yaml",
            ("release", "conversations"),
            f"the release has {release.conversations} conversations but the shipped and held-out ids "
            f"number {len(set(shipped) | set(held_out))}.",
        )


def _frames(config: Config) -> Iterator[Finding]:
    frames = config.frames.root
    for name, frame in frames.items():
        type_field = frame.fields.get("type")
        if type_field is None or type_field.const != name:
            yield Finding(
                "frames.yaml",
                (name, "fields", "type"),
                f"the frame's type field must be the constant {name!r}.",
            )


def _band_example(config: Config) -> Iterator[Finding]:
    names: set[str] = set()
    for index, entry in enumerate(config.site.rank_band_example):
        if entry.name in names:
            yield Finding(
                "site.yaml", ("rank_band_example", index, "name"), f"{entry.name!r} is listed twice."
            )
        names.add(entry.name)
        scale = config.scoring.score_scale
        if not scale.min <= entry.low <= entry.score <= entry.high <= scale.max:
            yield Finding(
                "site.yaml",
                ("rank_band_example", index),
                f"an example entry needs {scale.min} <= low <= score <= high <= {scale.max}.",
            )
