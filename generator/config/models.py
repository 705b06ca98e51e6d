"""Typed models of platform_config/: what each file may hold. Cross-field rules live in invariants.py."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, StringConstraints

TBA = Literal["to be announced"]
YearMonth = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
PartialDate = dt.date | YearMonth | TBA
Fraction = Annotated[float, Field(ge=0, le=1)]
PositiveInt = Annotated[int, Field(gt=0)]
Text = Annotated[str, StringConstraints(min_length=1)]
Url = Annotated[str, StringConstraints(pattern=r"^https://\S+$")]
PillarId = Text


class Model(BaseModel):
    # strict: a quoted "3000" where a number belongs is an organiser's typo, not something to coerce.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# platform.yaml
class Programme(Model):
    name: Text
    edition: Text
    organisers: Text
    timezone: Text


class Urls(Model):
    base: Url
    guide: Url
    integration: Url
    methodology: Url
    rules: Url
    terms: Url
    # The programme's own download of the starter kit, beside the copy this site builds.
    starter_kit: Url


Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class Contact(Model):
    # An address nobody has announced is written "to be announced" and shown as such, never invented.
    email: Annotated[str, StringConstraints(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")] | TBA
    covers: Text


class IssueRecord(Model):
    issued: dt.date
    protocol: Text
    scoring_version: Text
    summary: Text
    # The sha256 of each PDF as first published, by file name; `cvb issue pdf` rebuilds them and compares.
    # Absent for issues cut before PDFs were printed.
    pdfs: dict[Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+\.pdf$")], Sha256] | None = None
    # What the PDFs were printed from: the settings' content hash (generator.issue_state.config_sha256: every file
    # but the issue records) and the commit checked out. A build from other settings prints no PDF under this
    # issue's date. Absent for issues cut before they were pinned.
    config_sha256: Sha256 | None = None
    commit: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")] | None = None


class Round(Model):
    id: Text
    name: Text
    purpose: Text
    opens: dt.date | dt.datetime | TBA
    closes: dt.date | dt.datetime | TBA
    # The one round whose runs the published standings count; the others' runs are judged, never ranked.
    standing: bool = False


class PlatformFile(Model):
    programme: Programme
    urls: Urls
    contact: Contact
    issues: Annotated[list[IssueRecord], Field(min_length=1)]
    rounds: Annotated[list[Round], Field(min_length=1)]


# protocol.yaml
class Transport(Model):
    scheme: Literal["wss"]
    certificate: Text
    headers_sent: Text
    secret: Text


class Audio(Model):
    encoding: Text
    sample_rate_hz: PositiveInt
    channels: PositiveInt
    sample_bits: Literal[8, 16, 24, 32]
    byte_order: Literal["little-endian", "big-endian"]
    frame_ms: PositiveInt
    frame_bytes: PositiveInt
    wav_header_bytes: Annotated[int, Field(ge=0)]
    both_sides_mixed: bool


class Deadline(Model):
    factor: Annotated[float, Field(gt=0)]
    floor_ms: PositiveInt
    clock: Text


class Clock(Model):
    starts_at: Text
    stops_at: Text


class Concurrency(Model):
    rule: Text


class ScoredRun(Model):
    # Attempts per item in all, the first included: an item our side breaks runs again until this many.
    max_attempts: PositiveInt
    stall_ms: PositiveInt


class Delivery(Model):
    min_seconds_per_character: Annotated[float, Field(ge=0)]
    max_seconds_per_character: Annotated[float, Field(gt=0)]
    extra_seconds_allowed: Annotated[float, Field(ge=0)]
    min_level_dbfs: Annotated[float, Field(le=0)]
    max_level_dbfs: Annotated[float, Field(le=0)]
    max_clipped_share: Fraction


class ConnectionTest(Model):
    clips: PositiveInt
    approximate_duration_s: PositiveInt
    all_must_pass: bool
    default_concurrency: PositiveInt
    late_reply_wait_ms: PositiveInt
    conversation_barge_in_after_ms: Annotated[list[Annotated[int, Field(ge=0)] | None], Field(min_length=1)]
    listen_after_last_turn_ms: PositiveInt
    delivery: Delivery
    not_measured: list[Text]


class E2EProtocol(Model):
    scripted_conversations: PositiveInt


class TurnExample(Model):
    index: Annotated[int, Field(ge=0)]
    text: Text
    duration_ms: PositiveInt
    expect_interruption: bool


class ProtocolExamples(Model):
    asr_run_item_id: Text
    llm_run_item_id: Text
    clip_duration_ms: PositiveInt
    transcript_text: Text
    llm_answer_text: Text
    turn: TurnExample
    long_clip_duration_ms: PositiveInt


class AudioMeasures(Model):
    noise_floor_percentile: Annotated[float, Field(gt=0, lt=100)]
    digital_silence_min_ms: PositiveInt


class BuiltinClipText(Model):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]*$")]
    text: Text


class BuiltinClips(Model):
    voice: Text
    texts: Annotated[list[BuiltinClipText], Field(min_length=1)]


class ProtocolFile(Model):
    version: Text
    transport: Transport
    audio: Audio
    handshake_timeout_ms: PositiveInt
    max_message_bytes: PositiveInt
    deadline: Deadline
    clock: dict[PillarId, Clock]
    llm_task: Text
    tts_turn_index: Annotated[int, Field(ge=0)]
    concurrency: Concurrency
    scored_run: ScoredRun
    connection_test: ConnectionTest
    e2e: E2EProtocol
    examples: ProtocolExamples
    audio_measures: AudioMeasures
    builtin_clips: BuiltinClips


# frames.yaml
FieldType = Literal["string", "integer", "boolean", "string_list", "object"]


class FrameField(Model):
    type: FieldType
    const: str | None = None
    note: str | None = None
    pillars: list[PillarId] | None = None
    fields: dict[str, FrameField] | None = None


class Frame(Model):
    sender: Literal["platform", "entrant"]
    pillars: Annotated[list[PillarId], Field(min_length=1)]
    purpose: Text
    fields: dict[str, FrameField]


class FramesFile(RootModel[dict[str, Frame]]):
    model_config = ConfigDict(frozen=True, strict=True)


# scoring.yaml
class Scale(Model):
    min: int
    max: int


class LatencyThresholds(Model):
    flat_below: PositiveInt
    zero_at: PositiveInt
    percentile: Annotated[int, Field(gt=0, le=100)]


class Pillar(Model):
    name: Text
    short: Text
    measure: Text
    weight: Fraction
    core: bool
    judge_models: PositiveInt | None = None
    sub_weights: dict[str, Fraction] | None = None
    tones: PositiveInt | None = None
    no_tone_cap_rating: int | None = None
    machine_weights: dict[str, Fraction] | None = None
    rated_weights: dict[str, Fraction] | None = None
    latency_ms: LatencyThresholds | None = None
    yield_within_ms: PositiveInt | None = None


class FloorEntry(Model):
    floor: Annotated[float, Field(gt=0, le=1)]
    scoring_version: Text
    effective_from: PartialDate
    reason: Text
    measured_error_rate_range: Annotated[list[Fraction], Field(min_length=2, max_length=2)] | None = None


class Statistics(Model):
    bootstrap_resamples: PositiveInt
    interval: Annotated[float, Field(gt=0, lt=1)]
    bootstrap_seed: Annotated[int, Field(ge=0)]
    resampling_unit: Literal["clip"]
    min_clips_for_interval: PositiveInt


class ScorerInput(Model):
    max_text_chars: PositiveInt


class CrossAnchorIllustration(Model):
    here: Fraction
    anchor: Fraction


class CrossAnchor(Model):
    benchmark: Text
    illustration: CrossAnchorIllustration


class ScoringFile(Model):
    current_scoring_version: Text
    score_scale: Scale
    rating_scale: Scale
    pillars: dict[PillarId, Pillar]
    error_rate_floor_history: Annotated[list[FloorEntry], Field(min_length=1)]
    statistics: Statistics
    scorer_input: ScorerInput
    cross_anchor: CrossAnchor


# rounds.yaml
class Draw(Model):
    size: PositiveInt
    strata: dict[str, Fraction]
    seeded_per: Text


class PracticePack(Model):
    calls: PositiveInt
    ships_with: list[Text]


class RoundsFile(Model):
    draw: Draw
    runs_per_round: PositiveInt
    pool_size: PositiveInt
    held_out_size: PositiveInt
    separate_pools_per_round: bool
    practice_pack: PracticePack


# failures.yaml
class Failure(Model):
    code: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    attributed_to: Literal["entrant", "platform", "network"]
    message: Text
    pillars: list[PillarId] | None = None


class FailuresFile(RootModel[list[Failure]]):
    model_config = ConfigDict(frozen=True, strict=True)


# endpointing.yaml
class Release(Model):
    name: Text
    conversations: PositiveInt
    shipped_ids: list[int]
    held_out_ids: list[int]
    shipped_path: Text
    shipped_files: list[Text]
    prohibited_sources: list[Text]


class OperatorDecision(Model):
    date: dt.date
    decision: Text


class ReviewCheck(Model):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    summary: Text


class ReviewScan(Model):
    """What `cvb review scan` looks for besides the release's own ids and sources."""

    mirror_hosts: Annotated[list[Text], Field(min_length=1)]
    identifier_words: Annotated[list[Text], Field(min_length=1)]
    split_words: Annotated[list[Text], Field(min_length=1)]
    training_words: Annotated[list[Text], Field(min_length=1)]
    min_id_list: Annotated[int, Field(ge=2)]
    id_list_share: Annotated[float, Field(gt=0, le=1)]


class ReviewCausality(Model):
    """How `cvb review causality` probes a frame-probability function."""

    cut_points: Annotated[int, Field(ge=1)]
    tolerance: Annotated[float, Field(gt=0, lt=1)]
    time_limit_seconds: PositiveInt


class EndpointingFile(Model):
    release: Release
    frame_time_variable: Text
    operator_decisions: list[OperatorDecision]
    review_checks: Annotated[list[ReviewCheck], Field(min_length=1)]
    scan: ReviewScan
    causality: ReviewCausality


# methodology.yaml
class Integrity(Model):
    watermarking: bool
    held_out_verification: bool
    issue_record_names_recipient: bool


class Illustrations(Model):
    """Figures the programme's own pages use to make a rule concrete; none of them is a setting of the scorer."""

    long_call_s: PositiveInt
    sine_wave_hz: PositiveInt
    slow_reply_s: PositiveInt
    early_reply_s: PositiveInt
    inaudible_low_ms: PositiveInt
    inaudible_high_ms: PositiveInt


class MethodologyFile(Model):
    language_policy: Text
    background_speech: Text
    fillers: Text
    integrity: Integrity
    related_benchmarks: list[Text]
    illustrations: Illustrations


# site.yaml
class Editor(Model):
    max_chars: PositiveInt


class KitStub(Model):
    delay_s: Annotated[float, Field(ge=0)]
    speech_s: Annotated[float, Field(gt=0)]
    speed: Annotated[float, Field(gt=0)]
    tone_hz: PositiveInt
    tone_peak: Annotated[float, Field(gt=0, lt=1)]
    cpu_s: Annotated[float, Field(ge=0)]


class KitLimits(Model):
    max_message_bytes: PositiveInt
    max_clip_audio_s: PositiveInt
    shutdown_grace_s: Annotated[float, Field(ge=0)]


CloseCode = Annotated[int, Field(ge=1000, le=4999)]


class KitCloseCodes(Model):
    shutting_down: CloseCode
    bad_frame: CloseCode
    too_large: CloseCode
    model_failed: CloseCode


class KitPins(Model):
    websockets: Text
    ws: Text


class KitDocker(Model):
    python_image: Text
    node_image: Text


class KitTls(Model):
    reverse_proxy: Text
    example_host: Text


class KitVersions(Model):
    python: Annotated[str, StringConstraints(pattern=r"^3\.[0-9]+$")]
    node: Annotated[str, StringConstraints(pattern=r"^[0-9]+$")]
    python_tested: Annotated[
        list[Annotated[str, StringConstraints(pattern=r"^3\.[0-9]+$")]], Field(min_length=1)
    ]
    node_tested: Annotated[list[Annotated[str, StringConstraints(pattern=r"^[0-9]+$")]], Field(min_length=1)]


class StarterKit(Model):
    default_port: Annotated[int, Field(gt=0, lt=65536)]
    stub: KitStub
    limits: KitLimits
    close_codes: KitCloseCodes
    plain_http_status: Annotated[int, Field(ge=400, le=499)]
    pins: KitPins
    docker: KitDocker
    tls: KitTls
    zip_name: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._-]+\.zip$")]
    versions: KitVersions
    declared_concurrency: PositiveInt
    model_processes: Annotated[int, Field(ge=0)]
    model_nice: Annotated[int, Field(ge=0, le=19)]


class BandExampleEntry(Model):
    name: Text
    score: float
    low: float
    high: float


class SiteFile(Model):
    editor: Editor
    starter_kit: StarterKit
    rank_band_example: Annotated[list[BandExampleEntry], Field(min_length=2)]


# glossary.yaml
GlossaryId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]


class Term(Model):
    en: Text
    zh: Text
    abbr: Text | None = None
    avoid: list[Text] = []


class Bilingual(Model):
    en: Text
    zh: Text


class PluralText(Model):
    one: Text
    other: Text


class HongKongTerm(Model):
    """A technical term as Hong Kong developers write it, the Taiwan or Mainland forms it replaces, why, and the
    Hong Kong source the choice can be checked against (saying so when it was not checked)."""

    use: Text
    instead_of: Annotated[list[Text], Field(min_length=1)]
    meaning: Text
    reason: Text
    source: Text


class GlossaryFile(Model):
    terms: dict[GlossaryId, Term]
    avoid: dict[Text, Text]
    # Checked on every Chinese page by tests/generator/test_hong_kong_terms.py.
    hong_kong_terms: list[HongKongTerm] = Field(default_factory=list)
    zh_text: dict[Text, Text]
    interface: dict[GlossaryId, Bilingual]
    # The editor drawing's words in Chinese, keyed as cvb_scorer.view_text.ViewText's fields (checked there).
    zh_view: dict[GlossaryId, Text | PluralText]
