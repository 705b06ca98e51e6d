"""The integration and methodology pages describe a scored run as the runner does it, in both editions: the
failure codes they name for our faults and the network's are the ones the attribution rule gives, and the
numbers they state are the config's."""

from __future__ import annotations

import re

import pytest

from generator.config.localise import zh_config
from generator.kit_servers import rendered
from generator.pages.words import cardinal
from generator.pages.words_zh import zh_words
from generator.provenance import Num
from runner.attribution import Outcome, judge_attempt
from runner.from_config import run_settings
from runner.record import AWAITS
from tests.runner.support import CONFIG, RUN

HEADINGS = {
    ("en", "integration.md"): "## How a scored run runs",
    ("zh", "integration.md"): "## 計分測試怎樣進行",
    ("en", "methodology.md"): "## How runs are recorded",
    ("zh", "methodology.md"): "## 測試紀錄",
}


def _section(edition: str, page: str) -> str:
    pages = rendered().pages if edition == "en" else rendered().zh_pages
    text = pages[page]
    start = text.index(HEADINGS[(edition, page)])
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _codes(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_integration_page_names_the_codes_the_attribution_rule_gives(edition: str) -> None:
    section = _section(edition, "integration.md")
    common = {"attempt": 1, "policy": RUN.policy, "settings": RUN.settings}
    ours = judge_attempt(platform_fault="our client failed", network_drop=None, **common)
    network = judge_attempt(platform_fault=None, network_drop="no close frame", **common)
    # Ours runs again; the network's stands as the clip's failed result (test_faults runs both for real).
    assert (ours.outcome, network.outcome) == (Outcome.RERUN, Outcome.SCORED)
    assert ours.failure is not None and network.failure is not None
    assert (ours.failure.attributed_to, network.failure.attributed_to) == ("platform", "network")
    assert _codes(section) == {ours.failure.code, network.failure.code}
    assert str(CONFIG.rounds.draw.size) in section and str(CONFIG.protocol.audio.frame_ms) in section


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_the_methodology_page_says_how_a_run_is_recorded(edition: str) -> None:
    section = _section(edition, "methodology.md")
    config = CONFIG if edition == "en" else zh_config(CONFIG)
    # Recognition scored in the run, reasoning awaiting the judge: as runner/record.py's AWAITS says.
    assert "asr" not in AWAITS and "llm" in AWAITS
    assert config.scoring.pillars["asr"].name in section and config.scoring.pillars["llm"].name in section
    assert config.protocol.deadline.clock in section


@pytest.mark.parametrize(
    ("edition", "page"), [(e, p) for e in ("en", "zh") for p in ("integration.md", "methodology.md")]
)
def test_both_pages_state_the_re_run_settings_the_runner_applies(edition: str, page: str) -> None:
    section = _section(edition, page)
    policy = run_settings(
        CONFIG
    ).policy  # the config's, as `cvb run` applies them (RUN's stall is the tests')
    attempts = Num(policy.max_attempts, frozenset())
    assert str(cardinal(attempts) if edition == "en" else zh_words(attempts)) in section
    assert f"{policy.stall_ms} " in section
