"""Numbers as the words a sentence needs ("two fifths", "most"), computed so they follow the config."""

from __future__ import annotations

from fractions import Fraction

from generator.provenance import Num, Text

_CARDINALS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
_ORDINAL_PARTS = {
    2: ("half", "halves"),
    3: ("third", "thirds"),
    4: ("quarter", "quarters"),
    5: ("fifth", "fifths"),
}
_ORDINAL_PARTS.update({n: (f"{_CARDINALS[n]}th", f"{_CARDINALS[n]}ths") for n in range(6, 11)})
_ORDINAL_PARTS[8] = ("eighth", "eighths")
_ORDINAL_PARTS[9] = ("ninth", "ninths")


def cardinal(n: Num) -> Text:
    value = int(n.value)
    word = _CARDINALS[value] if 0 <= value < len(_CARDINALS) and value == n.value else str(n)
    return Text(word, n.sources)


def fraction_words(n: Num) -> Text:
    """0.2 → "a fifth", 0.4 → "two fifths", 0.5 → "half"; anything else as a percentage."""
    frac = Fraction(n.value).limit_denominator(10)
    if (
        abs(float(frac) - n.value) > 1e-9
        or frac.denominator not in _ORDINAL_PARTS
        or not 0 < frac.numerator < frac.denominator  # a whole share or more has no fraction word
    ):
        return Text(f"{n.value * 100:g}%", n.sources)
    single, plural = _ORDINAL_PARTS[frac.denominator]
    if frac.numerator == 1:
        article = "an" if single[0] in "aeiou" else "a"
        return Text(single if frac.denominator == 2 else f"{article} {single}", n.sources)
    return Text(f"{_CARDINALS[frac.numerator]} {plural}", n.sources)


# Thresholds for describing how much of a pool an entrant has seen; the words are editorial, the fraction is not.
_EXPOSURE_WORDS = (
    (0.95, "nearly all"),
    (0.6, "most"),
    (0.4, "about half"),
    (0.2, "a fair part"),
    (0.0, "a little"),
)


def share_words(n: Num) -> Text:
    for threshold, word in _EXPOSURE_WORDS:
        if n.value >= threshold:
            return Text(word, n.sources)
    return Text(_EXPOSURE_WORDS[-1][1], n.sources)


def and_list(items: list[Text]) -> Text:
    """["A", "B", "C"] → "A, B and C", tracked by every item's sources."""
    names = [str(i) for i in items]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
    sources: frozenset[str] = frozenset().union(*(i.sources for i in items)) if items else frozenset()
    return Text(joined, sources)
