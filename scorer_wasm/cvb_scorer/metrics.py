"""CER and Mix Error Rate, per clip and per corpus, with the per-class breakdown and the Simplified-cost
diagnostic.

Corpus rates are errors summed over clips divided by reference tokens summed over clips (weighted by reference
length), never a mean of per-clip rates. A clip with no hypothesis is scored against an empty hypothesis (all
deletions) and counted in coverage, never dropped.

Empty reference (N = 0): the rate is 0.0 when the hypothesis is empty too and 1.0 (100%) otherwise; its
insertions still count in the corpus numerator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache

from cvb_scorer._charclass import class_body, ranges_of
from cvb_scorer.align import (
    Alignment,
    Counts,
    Op,
    Substitutions,
    align,
    edit_counts,
    edit_counts_many,
    substitutions_in,
    substitutions_many,
)
from cvb_scorer.normalise import Normalised, normalise_hypothesis, normalise_reference, prepare
from cvb_scorer.normalise.charsets import CharacterSet, charsets, count_simplified_only
from cvb_scorer.normalise.fold import fold_reference
from cvb_scorer.normalise.numerals import CURRENCY_NAMES, CURRENCY_WORDS, EXCEPTION_WORDS
from cvb_scorer.normalise.text import CLOCK_HALF, DECIMAL_WORD, NUMERAL_CHARS, fold_variants
from cvb_scorer.progress import Progress, counted
from cvb_scorer.tokens import (
    CLASS_OF_CODE,
    TokenClass,
    class_codes,
    coded_token_string,
    mer_token_texts,
    one_token_per_character,
)


def rate(counts: Counts) -> float:
    """Error rate of counts, with the published empty-reference rule."""
    if counts.N == 0:
        return 0.0 if counts.errors == 0 else 1.0
    return counts.errors / counts.N


class _Rates:
    """CER and MER from a result's counts; shared by a clip's result and a corpus's."""

    cer_counts: Counts
    mer_counts: Counts

    @property
    def cer(self) -> float:
        return rate(self.cer_counts)

    @property
    def mer(self) -> float:
        return rate(self.mer_counts)


@dataclass(frozen=True)
class ClassCounts:
    """Errors by token class: S and D are charged to the reference character's class, I to the hypothesis
    character's class; N is the number of reference characters of the class."""

    S: int
    D: int
    I: int  # noqa: E741
    N: int

    @property
    def errors(self) -> int:
        return self.S + self.D + self.I


@dataclass(frozen=True)
class SimplifiedCost:
    """``characters``: Simplified-only characters in the hypothesis. ``errors``: the errors that disappear when
    the hypothesis is folded to the reference's script, i.e. that writing Traditional would have avoided: every
    hypothesis character the reference has in a Traditional form there (万 where it has 萬, 系 where it has 係,
    also characters that are valid Traditional elsewhere) is replaced by that form, the result normalised and
    scored again, and the difference in errors is the cost."""

    characters: int
    errors: int


@dataclass(frozen=True, init=False)
class ClipScore(_Rates):
    id: str
    reference: Normalised
    hypothesis: Normalised
    has_hypothesis: bool
    cer_counts: Counts
    mer_counts: Counts
    # What the MER count aligned: each side's tokens one character per token (``_mer_sequences``), or None when
    # every token is one character (the MER alignment is then the CER alignment).
    mer_items: tuple[Sequence[str], Sequence[str]] | None = field(repr=False, compare=False)
    # The CER edit script when scoring built it (else built on first use, see below).
    script: Alignment | None = field(default=None, repr=False, compare=False)
    # The positions of the CER alignment's substitutions when corpus scoring found them (the Simplified cost
    # reads only these; else they are taken from the script on first use).
    substitutions: Substitutions | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        id: str,
        reference: Normalised,
        hypothesis: Normalised,
        has_hypothesis: bool,
        cer_counts: Counts,
        mer_counts: Counts,
        mer_items: tuple[Sequence[str], Sequence[str]] | None,
        script: Alignment | None = None,
        substitutions: Substitutions | None = None,
    ) -> None:
        # One per clip: filling the instance dict directly is half the cost of the generated frozen
        # ``__init__`` (a call of ``object.__setattr__`` per field). Assignment still raises afterwards.
        fields = self.__dict__
        fields["id"] = id
        fields["reference"] = reference
        fields["hypothesis"] = hypothesis
        fields["has_hypothesis"] = has_hypothesis
        fields["cer_counts"] = cer_counts
        fields["mer_counts"] = mer_counts
        fields["mer_items"] = mer_items
        fields["script"] = script
        fields["substitutions"] = substitutions

    @cached_property
    def cer_alignment(self) -> Alignment:
        """The CER edit script. Corpus scoring needs only the counts, so it walks without building a script;
        a script asked for later is built then (the same walk, so the same counts)."""
        if self.script is not None:
            return self.script
        return align(self.reference.cer, self.hypothesis.cer)

    @cached_property
    def cer_substitutions(self) -> Substitutions:
        """The (reference, hypothesis) positions of the CER alignment's substitutions, in order."""
        if self.substitutions is not None:
            return self.substitutions
        if self.script is not None:
            return substitutions_in(self.script.runs)
        return substitutions_many([(self.reference.cer, self.hypothesis.cer)])[1][0]

    @cached_property
    def ref_tokens(self) -> tuple[str, ...]:
        return _cached_token_texts(self.reference.text)

    @cached_property
    def hyp_tokens(self) -> tuple[str, ...]:
        return tuple(mer_token_texts(self.hypothesis.text))

    @cached_property
    def mer_alignment(self) -> Alignment:
        """The MER edit script; its runs index ``ref_tokens`` and ``hyp_tokens``. The items the count aligned
        are aligned again, so a drawing made after the count reuses the columns the count left."""
        return self.cer_alignment if self.mer_items is None else align(*self.mer_items)

    # Diagnostics are computed on first use: corpus scoring does not need them for every clip.
    @cached_property
    def by_class(self) -> Mapping[TokenClass, ClassCounts]:
        ref = self.reference.cer
        return by_class(ref, self.hypothesis.cer, self.cer_alignment, ref_codes=_upper_codes(ref))

    @cached_property
    def simplified(self) -> SimplifiedCost:
        return simplified_costs([self])[0]


@cache
def _traditional_forms() -> dict[str, frozenset[str]]:
    # Candidates go through the glyph-variant fold, as the reference did.
    return {k: frozenset(fold_variants(v)) for k, v in charsets().simplified_candidates.items()}


@lru_cache(maxsize=512)
def _upper_codes(text: str) -> str:
    return class_codes(text).upper()


@lru_cache(maxsize=512)
def _cached_token_texts(text: str) -> tuple[str, ...]:
    return tuple(mer_token_texts(text))


def by_class(
    ref: str, hyp: str, alignment: Alignment, *, ref_codes: str | None = None
) -> dict[TokenClass, ClassCounts]:
    rc = ref_codes if ref_codes is not None else class_codes(ref).upper()
    hc = class_codes(hyp).upper()
    # Each run of errors is a slice of class codes, and the codes are counted once per kind (matches, most of
    # a script, are skipped).
    parts: dict[Op, list[str]] = {Op.SUBSTITUTE: [], Op.DELETE: [], Op.INSERT: []}
    match, insert = Op.MATCH, Op.INSERT
    for op, i0, i1, j0, j1 in alignment.runs:
        if op is not match:
            parts[op].append(hc[j0:j1] if op is insert else rc[i0:i1])
    s, d, i = ("".join(parts[op]) for op in (Op.SUBSTITUTE, Op.DELETE, Op.INSERT))
    return {
        cls: ClassCounts(s.count(code), d.count(code), i.count(code), rc.count(code))
        for code, cls in CLASS_OF_CODE.items()
    }


def _script_texts(reference: Normalised, hypothesis: Normalised) -> tuple[str, str]:
    """Both texts as the rules before ``numerals`` leave them, where the script of a character is compared.
    The reference's fold is the one its normalisation recorded (``fold_changes`` index the prepared text),
    not made again; a reference with none recorded (nothing to fold, or one the editor took as already
    normalised) is folded here, which costs one scan when there is nothing to fold."""
    prepared = prepare(reference.source)
    if reference.fold_changes:
        chars = list(prepared)
        for change in reference.fold_changes:
            chars[change.index] = change.after
        ref = "".join(chars)
    else:
        ref = fold_reference(prepared)[0]
    return fold_variants(ref), fold_variants(prepare(hypothesis.source))


def _simplified_forms_of(read: Set[str]) -> frozenset[str]:
    return frozenset(h for h, forms in _traditional_forms().items() if not forms.isdisjoint(read))


@cache
def _number_sensitive() -> CharacterSet:
    """Characters whose Traditional form a numeral rule reads (万 for 萬, 个 for the 個 of 一個人): folding them can
    change how the hypothesis's numbers read, not just the one character."""
    read = NUMERAL_CHARS | {DECIMAL_WORD, CLOCK_HALF} | CURRENCY_WORDS | set("".join(CURRENCY_NAMES))
    return CharacterSet.of(_simplified_forms_of(read))


@cache
def _near_a_numeral() -> re.Pattern[str]:
    """A character whose Traditional form is in a word kept as written (齐 for the 齊 of 一齊, 面 for 七情上面),
    within a word's length of a numeral: only there can folding it make or break such a word. (Every such word
    holds a numeral; the words are many, and their characters common, so most clips have some far from any
    numeral.)"""
    chars = _simplified_forms_of(set("".join(EXCEPTION_WORDS)))
    word = class_body(ranges_of(map(ord, chars)))
    numeral = class_body(ranges_of(map(ord, NUMERAL_CHARS)))
    span = max(map(len, EXCEPTION_WORDS)) - 1
    return re.compile(f"[{numeral}][^\n]{{0,{span}}}[{word}]|[{word}][^\n]{{0,{span}}}[{numeral}]")


def _is_number_sensitive(text: str) -> bool:
    """Whether folding ``text`` to the reference's script could change how its numbers read."""
    return _number_sensitive().found_in(text) or _near_a_numeral().search(text) is not None


def _inventory_allows(ref: str, hyp: str) -> bool:
    # A fold needs a hypothesis character whose Traditional form the reference has somewhere.
    forms = _traditional_forms()
    in_reference = set(ref)
    return any(not forms[h].isdisjoint(in_reference) for h in set(hyp) if h in forms)


def _fold_pairs(ref: str, hyp: str, substitutions: Substitutions) -> list[tuple[int, int]]:
    """The substitutions (reference, hypothesis positions) of a character by one of its Traditional forms."""
    forms = _traditional_forms()
    none: frozenset[str] = frozenset()
    return [(i, j) for i, j in substitutions if ref[i] in forms.get(hyp[j], none)]


def _folded(ref: str, hyp: str, substitutions: Substitutions) -> str:
    """``hyp`` with every substitution of a character by one of its Traditional forms undone."""
    out = list(hyp)
    for i, j in _fold_pairs(ref, hyp, substitutions):
        out[j] = ref[i]
    return "".join(out)


def fold_to_reference_script(reference: Normalised, hypothesis: Normalised) -> str:
    """The raw hypothesis with every character that the reference has in a Traditional form at the same place
    replaced by that form: the two texts as the rules before ``numerals`` leave them (so 三万五 meets 三萬五) are
    aligned, and only substitutions of a character by one of its Traditional forms are undone."""
    ref, hyp = _script_texts(reference, hypothesis)
    return _folded(ref, hyp, substitutions_in(align(ref, hyp).runs))


def script_folded_cer(reference: Normalised, hypothesis: Normalised, alignment: Alignment) -> str:
    """The hypothesis's CER string folded to the reference's script (what ``simplified_costs`` compares with).

    A hypothesis with a character whose Traditional form a numeral rule reads is folded before normalising
    (``fold_to_reference_script``); any other is folded in its normalised form at the substitutions of the CER
    alignment."""
    if _is_number_sensitive(hypothesis.source):
        return normalise_hypothesis(fold_to_reference_script(reference, hypothesis)).cer
    return _folded(reference.cer, hypothesis.cer, substitutions_in(alignment.runs))


def simplified_costs(clips: Sequence[ClipScore]) -> list[SimplifiedCost]:
    """How many of each clip's CER errors writing Traditional would have avoided: the errors that disappear
    when the hypothesis is folded to the reference's script (``script_folded_cer``, the plain statement the
    tests compare with). Only counts are needed, never a script:

    - a hypothesis folded in its normalised form: replacing k substituted characters by the reference's makes
      the same alignment k cheaper, and no alignment of the folded text is cheaper than that (it would make
      the original cheaper than optimal), so exactly k errors disappear: the substitutions the CER alignment
      makes (kept by corpus scoring) are all it takes;
    - a hypothesis folded before normalising (it has a character a numeral rule reads): the script texts'
      substitutions and the folded texts' counts, each for all such clips at once (``substitutions_many``,
      ``edit_counts_many``); a fold that changes nothing removes nothing, and is not counted again.
    """
    costs = [0] * len(clips)
    early: list[tuple[int, str, str]] = []  # folded before normalising: index, both script texts
    for k, clip in enumerate(clips):
        ref, hyp = clip.reference, clip.hypothesis
        if not clip.cer_counts.errors:
            continue
        if _is_number_sensitive(hyp.source):
            ref_script, hyp_script = _script_texts(ref, hyp)
            if _inventory_allows(ref_script, hyp_script):
                early.append((k, ref_script, hyp_script))
        elif clip.cer_counts.S:
            costs[k] = len(_fold_pairs(ref.cer, hyp.cer, clip.cer_substitutions))
    _, found = substitutions_many([(ref_script, hyp_script) for _, ref_script, hyp_script in early])
    folded = [
        (k, normalise_hypothesis(_folded(ref_script, hyp_script, subs)).cer)
        for (k, ref_script, hyp_script), subs in zip(early, found, strict=True)
        if _fold_pairs(ref_script, hyp_script, subs)
    ]
    after = edit_counts_many([(clips[k].reference.cer, hyp_cer) for k, hyp_cer in folded])
    for (k, _), counts in zip(folded, after, strict=True):
        # Folding only undoes substitutions, but it can make a numeral readable (万三 → 萬三) and so cost more;
        # no error was then the script's fault.
        costs[k] = max(0, clips[k].cer_counts.errors - counts.errors)
    return [
        SimplifiedCost(count_simplified_only(clip.hypothesis.source), cost)
        for clip, cost in zip(clips, costs, strict=True)
    ]


def score_normalised(
    clip_id: str, ref: Normalised, hyp: Normalised, *, has_hypothesis: bool = True, edit_script: bool = False
) -> ClipScore:
    """Score a normalised pair; ``edit_script`` builds the CER edit script now (the editor draws it), otherwise
    only the counts are walked and the script is built if ``cer_alignment`` is asked for."""
    script = align(ref.cer, hyp.cer) if edit_script else None
    cer_counts = script.counts if script is not None else edit_counts(ref.cer, hyp.cer)
    items = _mer_sequences(ref, hyp)
    mer_counts = cer_counts if items is None else edit_counts(*items)
    return ClipScore(clip_id, ref, hyp, has_hypothesis, cer_counts, mer_counts, items, script)


# Where the characters that stand for tokens of several characters are taken from: the supplementary private
# use planes, then the BMP's private use area (a character a pair's texts have is skipped).
_CODE_POINTS = (range(0xF0000, 0x110000), range(0xE000, 0xF900))
_CODE_CANDIDATE = re.compile("[\U000f0000-\U0010ffff\ue000-\uf8ff]")


def _mer_sequences(ref: Normalised, hyp: Normalised) -> tuple[Sequence[str], Sequence[str]] | None:
    """Both sides' MER tokens for alignment, or None when every token is one character (the MER alignment is
    then the CER alignment: the same items in the same order).

    Each side is a string of one character per token (``coded_token_string``): a token of several characters
    (a Latin word, a number) becomes a character that neither text has, the same one for the same token on
    both sides, so two items are equal exactly when their tokens are and the alignment is the tokens'. Should
    the texts use up every candidate character, the token lists themselves are returned."""
    if one_token_per_character(ref.text) and one_token_per_character(hyp.text):
        return None
    codes: dict[str, str] = {}
    # The candidates the texts have (almost always none), found in one scan of each text.
    taken = {*_CODE_CANDIDATE.findall(ref.text), *_CODE_CANDIDATE.findall(hyp.text)}
    free = (ch for part in _CODE_POINTS for ch in map(chr, part) if ch not in taken)

    def code(token: str) -> str:
        ch = codes.get(token)
        if ch is None:
            ch = codes[token] = next(free)
        return ch

    try:
        sequences = (coded_token_string(ref.text, code), coded_token_string(hyp.text, code))
    except StopIteration:  # pragma: no cover - needs more than 130,000 distinct words and numbers in a pair
        return _cached_token_texts(ref.text), tuple(mer_token_texts(hyp.text))
    return None if not codes else sequences


def score_clip(clip_id: str, reference: str, hypothesis: str | None) -> ClipScore:
    """Score one clip; ``hypothesis=None`` means the system returned nothing (scored as all deletions)."""
    ref = normalise_reference(reference)
    hyp = normalise_hypothesis(hypothesis if hypothesis is not None else "")
    return score_normalised(clip_id, ref, hyp, has_hypothesis=hypothesis is not None)


@dataclass(frozen=True)
class CorpusScore(_Rates):
    clips: tuple[ClipScore, ...]
    cer_counts: Counts
    mer_counts: Counts
    covered: int

    @property
    def coverage(self) -> float:
        return self.covered / len(self.clips) if self.clips else 0.0


def _normalised_rows(
    pairs: Iterable[tuple[str, str, str | None]],
) -> list[tuple[str, Normalised, Normalised, bool]]:
    """Each clip's id, normalised reference and hypothesis, and whether it has a hypothesis: what
    ``normalise_reference`` and ``normalise_hypothesis`` make of each text, each text normalised once per
    corpus. A hypothesis written as its reference was is the reference's normalisation when the reference fold
    changed nothing: the fold is the only rule a reference has and a hypothesis has not, and it changes the
    text only where it records a change."""
    references: dict[str, Normalised] = {}
    hypotheses: dict[str, Normalised] = {}
    rows = []
    for cid, ref, hyp in pairs:
        r = references.get(ref)
        if r is None:
            r = references[ref] = normalise_reference(ref)
        text = hyp if hyp is not None else ""
        h = hypotheses.get(text)
        if h is None:
            h = hypotheses[text] = r if text == ref and not r.fold_changes else normalise_hypothesis(text)
        rows.append((cid, r, h, hyp is not None))
    return rows


def score_corpus(
    pairs: Sequence[tuple[str, str, str | None]], *, progress: Progress | None = None
) -> CorpusScore:
    """Score (id, reference, hypothesis or None) triples at corpus level: each clip as ``score_clip`` scores
    it, with the alignments of all clips counted together (``edit_counts_many``).

    Parameters
    ----------
    pairs : Sequence[tuple[str, str, str | None]]
        Each clip's id, reference and hypothesis; None when the system gave no hypothesis, which is scored as
        an empty one (every reference character deleted).
    progress : Progress, optional
        Hears of each clip read (``cvb_scorer.progress``).

    Returns
    -------
    CorpusScore
        The clips' scores in the order given, and the corpus counts: each clip's errors and reference tokens
        summed, so a corpus rate weighs each clip by its reference's length.

    Examples
    --------
    >>> from cvb_scorer.metrics import score_corpus
    >>> corpus = score_corpus([("c1", "我哋嘅保單", "我地嘅保單"), ("c2", "多謝晒", None)])
    >>> corpus.cer_counts
    Counts(S=1, D=3, I=0, N=8)
    >>> corpus.cer, corpus.coverage
    (0.5, 0.5)
    >>> [(clip.id, clip.cer) for clip in corpus.clips]
    [('c1', 0.2), ('c2', 1.0)]
    """
    rows = _normalised_rows(counted(pairs, phase="clips", total=len(pairs), progress=progress))
    cer_counts, substitutions = substitutions_many([(ref.cer, hyp.cer) for _, ref, hyp, _ in rows])
    # The clips whose MER tokens are not all one character need an alignment of their own.
    mer_items = [_mer_sequences(ref, hyp) for _, ref, hyp, _ in rows]
    own = [(k, items) for k, items in enumerate(mer_items) if items is not None]
    mer_counts = list(cer_counts)
    for (k, _), counts in zip(own, edit_counts_many([items for _, items in own]), strict=True):
        mer_counts[k] = counts
    clips = tuple(
        ClipScore(cid, ref, hyp, covered, cer, mer, items, None, subs)
        for (cid, ref, hyp, covered), cer, mer, items, subs in zip(
            rows, cer_counts, mer_counts, mer_items, substitutions, strict=True
        )
    )
    # Counts are named tuples: summing them column by column runs in C.
    cer = Counts(*map(sum, zip(*(c.cer_counts for c in clips), strict=True))) if clips else Counts()
    mer = Counts(*map(sum, zip(*(c.mer_counts for c in clips), strict=True))) if clips else Counts()
    return CorpusScore(clips, cer, mer, sum(c.has_hypothesis for c in clips))
