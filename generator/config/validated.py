"""The validated configuration: one model per file. load.py makes it; invariants.py and localise.py read it."""

from __future__ import annotations

from dataclasses import dataclass

from generator.config.models import (
    EndpointingFile,
    FailuresFile,
    FramesFile,
    GlossaryFile,
    MethodologyFile,
    PlatformFile,
    ProtocolFile,
    RoundsFile,
    ScoringFile,
    SiteFile,
)
from generator.config.source import SourceFile


@dataclass(frozen=True)
class Config:
    platform: PlatformFile
    protocol: ProtocolFile
    frames: FramesFile
    scoring: ScoringFile
    rounds: RoundsFile
    failures: FailuresFile
    endpointing: EndpointingFile
    methodology: MethodologyFile
    site: SiteFile
    glossary: GlossaryFile
    sources: dict[str, SourceFile]
