"""The editor's view of one reference/hypothesis pair: the alignment drawn over CER characters, a legend, the
figures and the sentences that explain them, as an HTML fragment plus the same data as JSON.

The browser calls ``render_view`` on every keystroke (through Pyodide) and the site's build calls it to
pre-render the no-JavaScript page, so both show byte-identical output. Every piece of user text goes through
``html.escape``; the fragment uses classes and ``data-`` attributes only (no ids, no inline styles or
handlers), so it can appear more than once on a page.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from html import escape as _html_escape
from typing import Any

from cvb_scorer.align import Counts, Op
from cvb_scorer.metrics import ClipScore, score_normalised
from cvb_scorer.normalise import Normalised, normalise_hypothesis, normalise_reference
from cvb_scorer.rules import ScoringRules, load_packaged_rules
from cvb_scorer.signature import signature
from cvb_scorer.tokens import TokenClass
from cvb_scorer.view_text import ENGLISH, Plural, ViewText

_NEEDS_ESCAPE = re.compile("[&<>\"']")


def escape(text: str) -> str:
    """``html.escape`` (quotes included), skipped for the many runs that hold no special character."""
    return _html_escape(text) if _NEEDS_ESCAPE.search(text) else text


VIEW_CLASSES = (TokenClass.HAN, TokenClass.CANTONESE, TokenClass.LATIN, TokenClass.DIGIT)

# Each op is told apart by element, class, a visible symbol and a word in the legend, never by colour alone.
_LEGEND = (
    ("match", '<span class="cvb-op cvb-match" data-op="match">字</span>', "legend_match"),
    (
        "substitute",
        '<mark class="cvb-op cvb-sub" data-op="substitute"><del>字</del>'
        '<span class="cvb-sym" aria-hidden="true">→</span><ins>子</ins></mark>',
        "legend_substitute",
    ),
    (
        "delete",
        '<del class="cvb-op cvb-del" data-op="delete">'
        '<span class="cvb-sym" aria-hidden="true">−</span>字</del>',
        "legend_delete",
    ),
    (
        "insert",
        '<ins class="cvb-op cvb-ins" data-op="insert">'
        '<span class="cvb-sym" aria-hidden="true">+</span>字</ins>',
        "legend_insert",
    ),
)
# The view's classes with the field of ViewText that names each.
_CLASS_NAMES = (
    (TokenClass.HAN, "class_han"),
    (TokenClass.CANTONESE, "class_cantonese"),
    (TokenClass.LATIN, "class_latin"),
    (TokenClass.DIGIT, "class_digit"),
)


@dataclass(frozen=True)
class EditorView:
    """One pair's view. ``html`` is the whole fragment; it is ``alignment`` (one element per run of the edit
    script) inside the alignment paragraph, followed by ``details`` (legend, figures, sentences), so the page
    can redraw only the runs that changed on a keystroke."""

    alignment: tuple[str, ...]
    details: str
    figures: dict[str, Any]
    ops: tuple[tuple[str, str, str], ...]
    ref_norm: str
    hyp_norm: str
    signature: str

    @property
    def html(self) -> str:
        return f"{_VIEW_OPEN}{_ALIGNMENT_OPEN}{''.join(self.alignment)}</p>{self.details}</div>"

    def to_json(self) -> str:
        return _dumps(
            {
                "html": self.html,
                "figures": self.figures,
                "ops": self.ops,  # tuples are written as JSON arrays, as lists are
                "ref_norm": self.ref_norm,
                "hyp_norm": self.hyp_norm,
                "signature": self.signature,
            }
        )

    def to_editor_json(self) -> str:
        """What the page needs on a keystroke: the drawing in its two parts, the figures (for the live summary)
        and the signature (checked against the page's). The edit script and the normalised texts are in the
        drawing already; leaving them out saves encoding, copying and parsing them again at every keystroke."""
        return _dumps(
            {
                "alignment": self.alignment,
                "details": self.details,
                "figures": self.figures,
                "signature": self.signature,
            }
        )


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def merged_ops(clip: ClipScore) -> list[tuple[Op, str, str]]:
    """The CER edit script with consecutive operations of one kind merged into runs of text."""
    ref, hyp = clip.reference.cer, clip.hypothesis.cer
    return [(op, ref[i0:i1], hyp[j0:j1]) for op, i0, i1, j0, j1 in clip.cer_alignment.runs]


def _op_html(op: Op, ref: str, hyp: str, escape: Callable[[str], str] = escape) -> str:
    if op is Op.MATCH:
        return f'<span class="cvb-op cvb-match" data-op="match">{escape(ref)}</span>'
    if op is Op.SUBSTITUTE:
        return (
            f'<mark class="cvb-op cvb-sub" data-op="substitute"><del>{escape(ref)}</del>'
            f'<span class="cvb-sym" aria-hidden="true">→</span><ins>{escape(hyp)}</ins></mark>'
        )
    if op is Op.DELETE:
        return (
            f'<del class="cvb-op cvb-del" data-op="delete"><span class="cvb-sym" aria-hidden="true">−</span>'
            f"{escape(ref)}</del>"
        )
    return (
        f'<ins class="cvb-op cvb-ins" data-op="insert"><span class="cvb-sym" aria-hidden="true">+</span>'
        f"{escape(hyp)}</ins>"
    )


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _counts_dict(c: Counts) -> dict[str, int]:
    return {"S": c.S, "D": c.D, "I": c.I, "N": c.N}


@lru_cache(maxsize=8)
def _longer_than_one(tokens: tuple[str, ...]) -> int:
    # Counted in C: a call's worth of tokens, one at a time in Python, is a noticeable part of a keystroke.
    # Cached: the reference's tokens are the same tuple at every keystroke.
    lengths = list(map(len, tokens))
    return len(lengths) - lengths.count(1) - lengths.count(0)


# The sentences are HTML, in ``text``'s words escaped (the fold's characters are escaped as they are listed).


def agreement_sentence(clip: ClipScore, text: ViewText = ENGLISH) -> str:
    """Whether CER and MER agree on this text, and why."""
    text = _escaped(text)
    runs = _longer_than_one(clip.ref_tokens) + _longer_than_one(clip.hyp_tokens)
    c, m = clip.cer_counts, clip.mer_counts
    agree = c.errors * m.N == m.errors * c.N and (c.N > 0) == (m.N > 0)
    if agree and runs == 0:
        return text.agree_single
    if agree:
        return text.agree_runs.format(runs=text.agree_run_count.of(runs))
    return text.differ.format(cer=_pct(clip.cer), mer=_pct(clip.mer), runs=text.differ_run_count.of(runs))


def simplified_sentence(clip: ClipScore, text: ViewText = ENGLISH) -> str:
    text = _escaped(text)
    s = clip.simplified
    if s.characters == 0 and s.errors == 0:
        return text.simplified_none
    return text.simplified_some.format(
        characters=text.simplified_characters.of(s.characters), errors=text.simplified_errors.of(s.errors)
    )


def fold_sentence(ref: Normalised, text: ViewText = ENGLISH) -> str:
    text = _escaped(text)
    if not ref.fold_changes:
        return text.fold_none
    tally = Counter((c.before, c.after) for c in ref.fold_changes)
    listed = text.list_separator.join(
        f"{escape(b)}→{escape(a)}" + (f" ×{k}" if k > 1 else "") for (b, a), k in sorted(tally.items())
    )
    return text.fold_some.format(characters=text.fold_characters.of(len(ref.fold_changes)), changes=listed)


def _summary_figures(clip: ClipScore) -> dict[str, Any]:
    """The figures the editor's summary line reads: they come with the alignment, at no extra cost."""
    return {
        "cer": clip.cer,
        "mer": clip.mer,
        "counts": {"cer": _counts_dict(clip.cer_counts), "mer": _counts_dict(clip.mer_counts)},
    }


def _figures(clip: ClipScore) -> dict[str, Any]:
    return {
        **_summary_figures(clip),
        "simplified_errors": clip.simplified.errors,
        "simplified_characters": clip.simplified.characters,
        "by_class": {
            cls.value: {"S": cc.S, "D": cc.D, "I": cc.I, "N": cc.N}
            for cls, cc in clip.by_class.items()
            if cls in VIEW_CLASSES or cc.N or cc.errors
        },
        "fold_changes": len(clip.reference.fold_changes),
    }


_VIEW_OPEN = '<div class="cvb-view" data-cvb-view="1">'
_ALIGNMENT_OPEN = '<p class="cvb-alignment" lang="yue-Hant-HK" data-cvb-part="alignment">'


def _empty(text: ViewText) -> tuple[str, ...]:
    return (f'<span class="cvb-empty">{_escaped(text).empty}</span>',)


def alignment_html(
    clip: ClipScore, ops: list[tuple[Op, str, str]], text: ViewText = ENGLISH
) -> tuple[str, ...]:
    """The alignment paragraph's children: one element per run of the edit script."""
    if not ops:
        return _empty(text)
    # The runs are slices of the two normalised texts (which punctuation removal leaves with nothing to
    # escape): when neither text needs escaping, no run does, and the test per run is skipped.
    texts = (clip.reference.cer, clip.hypothesis.cer)
    esc = escape if any(_NEEDS_ESCAPE.search(t) for t in texts) else str
    return tuple(_op_html(op, r, h, esc) for op, r, h in ops)


# Between two MER tokens inside one run: a thin space, so "9876 5432" shows as the two tokens MER counts and
# "九八七六五四三二" as eight, where the character drawing shows sixteen characters.
TOKEN_GAP = "\u2009"


def mer_ops(clip: ClipScore) -> list[tuple[Op, tuple[str, ...], tuple[str, ...]]]:
    """The MER edit script over tokens (Han characters, Latin words, digit runs), as runs of one kind of step:
    every MER error counted in the figures is one token in a substitution, deletion or insertion run here."""
    ref, hyp = clip.ref_tokens, clip.hyp_tokens
    return [(op, ref[i0:i1], hyp[j0:j1]) for op, i0, i1, j0, j1 in clip.mer_alignment.runs]


def mer_alignment_html(clip: ClipScore, text: ViewText = ENGLISH) -> tuple[str, ...]:
    """The alignment paragraph's children when the editor draws MER: one element per run of token steps."""
    ops = mer_ops(clip)
    if not ops:
        return _empty(text)
    return tuple(_op_html(op, TOKEN_GAP.join(r), TOKEN_GAP.join(h)) for op, r, h in ops)


def details_html(clip: ClipScore, sig: str, text: ViewText = ENGLISH) -> str:
    """Everything after the alignment: the legend, the figures, the sentences and the signature, in ``text``'s
    words (escaped: they may come from a site's config)."""
    words = _escaped(text)
    parts: list[str] = ['<dl class="cvb-legend" data-cvb-part="legend">']
    for name, sample, field in _LEGEND:
        parts.append(
            f'<div class="cvb-legend-item" data-op="{name}"><dt>{sample}</dt><dd>{getattr(words, field)}</dd></div>'
        )
    parts.append("</dl>")
    parts.append(
        f'<table class="cvb-figures" data-cvb-part="figures"><thead><tr><th scope="col">{words.figures_rate}</th>'
        f'<th scope="col">{words.figures_value}</th><th scope="col">S</th><th scope="col">D</th>'
        '<th scope="col">I</th><th scope="col">N</th></tr></thead><tbody>'
    )
    for label, value, c in (
        (words.figures_cer, clip.cer, clip.cer_counts),
        (words.figures_mer, clip.mer, clip.mer_counts),
    ):
        parts.append(
            f'<tr><th scope="row">{label}</th><td class="cvb-rate">{_pct(value)}</td><td>{c.S}</td>'
            f"<td>{c.D}</td><td>{c.I}</td><td>{c.N}</td></tr>"
        )
    parts.append("</tbody></table>")
    parts.append(f'<p class="cvb-agreement" data-cvb-part="agreement">{agreement_sentence(clip, text)}</p>')
    parts.append(
        f'<p class="cvb-simplified" data-cvb-part="simplified">{simplified_sentence(clip, text)}</p>'
    )
    parts.append(
        f'<table class="cvb-classes" data-cvb-part="classes"><caption>{words.classes_caption}</caption>'
        f'<thead><tr><th scope="col">{words.classes_class}</th><th scope="col">N</th><th scope="col">S</th>'
        f'<th scope="col">D</th><th scope="col">I</th><th scope="col">{words.classes_errors}</th></tr></thead>'
        "<tbody>"
    )
    for cls, field in _CLASS_NAMES:
        cc = clip.by_class[cls]
        parts.append(
            f'<tr data-class="{cls.value}"><th scope="row">{getattr(words, field)}</th><td>{cc.N}</td>'
            f"<td>{cc.S}</td><td>{cc.D}</td><td>{cc.I}</td><td>{cc.errors}</td></tr>"
        )
    parts.append("</tbody></table>")
    parts.append(f'<p class="cvb-fold" data-cvb-part="fold">{fold_sentence(clip.reference, text)}</p>')
    parts.append(f'<p class="cvb-signature" data-cvb-part="signature"><code>{escape(sig)}</code></p>')
    return "".join(parts)


@lru_cache(maxsize=4)
def _escaped(text: ViewText) -> ViewText:
    """``text`` with every word escaped for HTML, once per language rather than per keystroke. The values the
    sentences take (counts, percentages, the fold's characters, escaped as they are listed) need no more."""
    changes: dict[str, object] = {}
    for field in dataclasses.fields(text):
        value = getattr(text, field.name)
        changes[field.name] = (
            Plural(escape(value.one), escape(value.other)) if isinstance(value, Plural) else escape(value)
        )
    return dataclasses.replace(text, **changes)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def _as_normalised(reference: str) -> Normalised:
    # A reference already normalised (e.g. shown on the page as folded) is taken as is, but still cleaned so
    # odd input cannot break the drawing; normalisation is idempotent, so a truly normalised text is
    # unchanged.
    norm = normalise_hypothesis(reference)
    return Normalised(reference, norm.text, norm.cer)


def render_view(
    *,
    reference: str,
    hypothesis: str,
    reference_is_normalised: bool = False,
    rules: ScoringRules | None = None,
    mer: bool = False,
    text: ViewText = ENGLISH,
) -> EditorView:
    """The editor's view of one pair. The reference's normalisation is cached, so redrawing while the
    hypothesis changes costs only the hypothesis's normalisation and one alignment. With ``mer`` the drawing
    is the MER token alignment instead of the character one; the figures and details are the same. ``text`` is
    the language of the view's words (``cvb_scorer.view_text``); it changes no figure."""
    clip, sig = _scored(reference, hypothesis, reference_is_normalised=reference_is_normalised, rules=rules)
    ops = merged_ops(clip)
    return EditorView(
        alignment=mer_alignment_html(clip, text) if mer else alignment_html(clip, ops, text),
        details=details_html(clip, sig, text),
        figures=_figures(clip),
        ops=tuple((op.value, r, h) for op, r, h in ops),
        ref_norm=clip.reference.text,
        hyp_norm=clip.hypothesis.text,
        signature=sig,
    )


def _scored(
    reference: str, hypothesis: str, *, reference_is_normalised: bool, rules: ScoringRules | None
) -> tuple[ClipScore, str]:
    ref = _as_normalised(reference) if reference_is_normalised else normalise_reference(reference)
    hyp = normalise_hypothesis(hypothesis)
    clip = score_normalised("view", ref, hyp, edit_script=True)
    return clip, signature(rules=rules if rules is not None else load_packaged_rules())


@dataclass(frozen=True)
class EditorParts:
    """A keystroke's answer in two parts. ``first`` is what the keystroke changes on screen: the alignment
    runs, the summary figures (rates and counts) and the signature. ``rest()`` is the details and the whole
    figures; they need the clip's diagnostics (the Simplified cost can take a second and a third alignment,
    most of a keystroke's time on long texts), so the editor draws ``first`` at once and asks for ``rest()``
    only while no newer keystroke waits. The two merged are ``render_view(...).to_editor_json()`` exactly."""

    first: str
    clip: ClipScore
    signature: str
    text: ViewText = ENGLISH

    def rest(self) -> str:
        details = details_html(self.clip, self.signature, self.text)
        return _dumps({"details": details, "figures": _figures(self.clip)})


def render_editor_parts(
    *, reference: str, hypothesis: str, mer: bool = False, text: ViewText = ENGLISH
) -> EditorParts:
    """``render_view(...).to_editor_json()`` in two parts (see ``EditorParts``)."""
    clip, sig = _scored(reference, hypothesis, reference_is_normalised=False, rules=None)
    alignment = mer_alignment_html(clip, text) if mer else alignment_html(clip, merged_ops(clip), text)
    first = _dumps({"alignment": alignment, "figures": _summary_figures(clip), "signature": sig})
    return EditorParts(first, clip, sig, text)


def render_view_json(reference: str, hypothesis: str, reference_is_normalised: bool = False) -> str:
    """``render_view(...).to_json()`` with positional arguments, convenient to call from JavaScript."""
    return render_view(
        reference=reference, hypothesis=hypothesis, reference_is_normalised=reference_is_normalised
    ).to_json()


__all__ = ["EditorView", "mer_ops", "render_view", "render_view_json"]
