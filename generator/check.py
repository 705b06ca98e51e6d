"""The provenance check: every number a page, code sample or example frame prints came from the config.

Two independent nets:
- templates: a digit or a number word in a template's static text was typed by hand (reported by file and line);
- output: the pages are rendered with every config value bracketed by marker characters, and any digit left
  outside a bracket came from somewhere other than the config (reported by page and line).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import jinja2

from generator.build import render_all
from generator.config import Config
from generator.pages.editions import zh_number_words
from generator.paths import Layout
from generator.pdf.html import markdown_html
from generator.pdf.issue import print_dir
from generator.publication.rendering import markdown_leftovers
from generator.publication.sources import html_text
from generator.render import MARK_CLOSE, MARK_OPEN, environment
from generator.rules_export import scoring_rules_json
from generator.template_expressions import ExpressionProblem, scan_expressions

# Literals that look numeric but are not platform numbers, each with the reason it may stay.
ALLOWED_LITERALS: tuple[tuple[str, str], ...] = (
    (r"0\.0\.0\.0", "the address that means every interface"),
    (r"127\.0\.0\.1", "the loopback address"),
    (r"\brange\(0, ", "Python's loop start"),
    (r"\blet start = 0\b", "JavaScript's loop start"),
    (r"\bsha256(?:sum)?\b", "the name of a hash function (and of its command)"),
    (r"\b[Uu][Tt][Ff]-8\b", "the name of a text encoding"),
    (r"\bbase64\b", "the name of a text encoding of binary data"),
    (r"^\s*\d+\. ", "a Markdown ordered-list marker"),
    (r"\be2e\b", "the conversation pillar's identifier"),
    (r"\.length = 0;", "emptying a JavaScript array"),
    (r"\(\*i\* \+ 1\)", "the index of the next frame in a formula"),
    (r"\(1 − ", "one minus a rate in a formula"),
    (r"\bprocess\.exit\(1\)", "the exit status of a program that failed"),
    (r"\bpython3\b", "the name of the Python command on Debian and Ubuntu"),
)
_ALLOWED = re.compile("|".join(f"(?:{pattern})" for pattern, _ in ALLOWED_LITERALS))

NUMBER_WORDS = [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "half",
    "halves",
    "third",
    "thirds",
    "quarter",
    "quarters",
    "fifth",
    "fifths",
    "twice",
    "double",
    "triple",
    "dozen",
]
_NUMBER_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
_DIGIT = re.compile(r"[0-9０-９]")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


# Every problem the check reports has one shape (where, line, excerpt, message), the template-expression scan's
# included, so its class serves for all of them.
Provenance = ExpressionProblem


def _blank(match: re.Match[str]) -> str:
    # Keep newlines so line numbers of what follows stay true.
    return "".join("\n" if ch == "\n" else " " for ch in match.group(0))


def scan_template(path: Path, shown: str) -> Iterator[Provenance]:
    static = _JINJA.sub(_blank, path.read_text(encoding="utf-8"))
    for number, line in enumerate(static.splitlines(), start=1):
        visible = _ALLOWED.sub(lambda m: " " * len(m.group(0)), line)
        digit = _DIGIT.search(visible)
        if digit:
            yield Provenance(
                shown, number, line.strip(), "a number is typed into the template; take it from the config"
            )
        word = _NUMBER_WORD.search(visible)
        if word:
            yield Provenance(
                shown,
                number,
                line.strip(),
                f"the number word {word.group(0)!r} is typed into the template; derive it",
            )


def _unmarked_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """Each line of a marked rendering: its number, the line without markers, and the line with every
    bracketed (tracked) character blanked, so only what a template typed remains. Brackets may span lines."""
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        outside = []
        for ch in line:
            if ch == MARK_OPEN:
                depth += 1
            elif ch == MARK_CLOSE:
                depth -= 1
            else:
                outside.append(ch if depth == 0 else " ")
        clean = line.replace(MARK_OPEN, "").replace(MARK_CLOSE, "").strip()
        yield number, clean, "".join(outside)


def scan_output(text: str, shown: str) -> Iterator[Provenance]:
    """Digits outside marker brackets were not printed from a tracked config value."""
    for number, clean, outside in _unmarked_lines(text):
        visible = _ALLOWED.sub(lambda m: " " * len(m.group(0)), outside)
        if _DIGIT.search(visible):
            yield Provenance(shown, number, clean[:160], "a number here did not come from the config")


def template_problems(layout: Layout) -> list[Provenance]:
    """Numbers typed into templates: in their static text, and in their expressions (parsed by jinja)."""
    problems: list[Provenance] = []
    env = environment(layout.template_dirs(), mark=False)
    for directory in [*layout.template_dirs(), layout.templates / "zh", print_dir(layout)]:
        for path in sorted(directory.glob("*.j2")):
            shown = str(path.relative_to(layout.root))
            problems += scan_template(path, shown)
            problems += scan_expressions(env, path, shown)
    return problems


def scan_zh_template(path: Path, shown: str, terms: Mapping[str, str]) -> Iterator[Provenance]:
    """A Chinese template: digits and English number words as in English, Chinese number words (see
    editions.zh_number_words for the rule), and glossary terms typed instead of taken from the glossary."""
    yield from scan_template(path, shown)
    static = _JINJA.sub(_blank, path.read_text(encoding="utf-8"))
    for number, line in enumerate(static.splitlines(), start=1):
        for word in zh_number_words(line):
            yield Provenance(
                shown, number, line.strip(), f"the number word {word!r} is typed into the template; derive it"
            )
        for term_id, term in terms.items():
            if term in line:
                yield Provenance(
                    shown, number, line.strip(), f"the term {term!r} is typed; write {{{{ t.{term_id} }}}}"
                )


def scan_zh_output(text: str, shown: str, avoid: Mapping[str, str]) -> Iterator[Provenance]:
    """A rendered Chinese page: Chinese number words outside marker brackets, and wordings to avoid."""
    for number, clean, outside in _unmarked_lines(text):
        for word in zh_number_words(outside):
            yield Provenance(
                shown, number, clean[:160], f"the number word {word!r} did not come from the config"
            )
        for word, use in avoid.items():
            if word in clean:
                yield Provenance(
                    shown, number, clean[:160], f"{word!r} is not Hong Kong usage; write {use!r}"
                )


def check(layout: Layout, *, config_dir: Path | None = None, results: Path | None = None) -> list[Provenance]:
    problems: list[Provenance] = []
    problems += template_problems(layout)
    try:
        rendered = render_all(layout, config_dir=config_dir, mark=True, results=results)
    except (TypeError, jinja2.TemplateError) as exc:
        # A template the expression scan already refused may not render at all; report both, not a traceback.
        where = getattr(exc, "filename", None) or "a template"
        return [
            *problems,
            Provenance(str(where), getattr(exc, "lineno", None) or 0, str(exc), "rendering failed"),
        ]
    glossary = rendered.config.glossary
    terms = {term_id: term.zh for term_id, term in glossary.terms.items()}
    for path in sorted((layout.templates / "zh").glob("*.j2")):
        problems += scan_zh_template(path, str(path.relative_to(layout.root)), terms)
    avoid = dict(glossary.avoid)
    for term in glossary.terms.values():
        avoid.update({word: term.zh for word in term.avoid})
    for name, text in rendered.pages.items():
        problems += scan_output(text, f"rendered page {name}")
    for name, text in {**rendered.zh_pages, "404.md": rendered.zh_not_found}.items():
        problems += scan_output(text, f"rendered Chinese page {name}")
        problems += scan_zh_output(text, f"rendered Chinese page {name}", avoid)
    for name, text in rendered.kit.items():
        problems += scan_output(text, f"rendered starter-kit file {name}")
    for edition, pages in (("", rendered.pages), ("Chinese ", rendered.zh_pages)):
        for name, text in pages.items():
            problems += rendering_problems(text, f"rendered {edition}page {name}")
    problems += packaged_rules_drift(layout, scoring_rules_json(rendered.config))
    problems += pool_problems(layout, rendered.config, results or layout.root / "results" / "example")
    return problems


def pool_problems(layout: Layout, config: Config, folder: Path) -> list[Provenance]:
    """Each round's pool holds rounds.pool_size clips: the pages state the exposure of an entrant's runs from
    that size, so a pool of another size makes the stated share wrong."""
    problems: list[Provenance] = []
    for path in sorted((folder / "pools").glob("*.jsonl")) if (folder / "pools").is_dir() else []:
        clips = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        shown = str(path.relative_to(layout.root)) if path.is_relative_to(layout.root) else str(path)
        if clips != config.rounds.pool_size:
            problems.append(
                Provenance(
                    shown,
                    1,
                    f"{clips} clips",
                    f"the pool holds {clips} clips but rounds.pool_size is {config.rounds.pool_size}; the "
                    "exposure the methodology states comes from rounds.pool_size, so make them agree",
                )
            )
        if config.rounds.held_out_size >= clips:
            problems.append(
                Provenance(
                    shown,
                    1,
                    f"{clips} clips",
                    f"rounds.held_out_size ({config.rounds.held_out_size}) is not fewer than the pool's clips",
                )
            )
    return problems


def rendering_problems(markdown_text: str, shown: str) -> list[Provenance]:
    """Markdown a page's renderer left as text (a table that lost its blank line reads as pipes)."""
    html, _ = markdown_html(markdown_text.replace(MARK_OPEN, "").replace(MARK_CLOSE, ""), anchor_prefix="")
    return [
        Provenance(shown, found.line, found.text, f"{found.what} is left as text; the page shows Markdown")
        for found in markdown_leftovers(html_text(html, code=False))
    ]


PACKAGED_RULES = Path("scorer_wasm/cvb_scorer/data/scoring_rules.json")


def packaged_rules_drift(layout: Layout, expected: str) -> list[Provenance]:
    """The scoring rules committed inside the scorer package (what `pip install ./scorer_wasm` carries) must be
    the config's, or an installed scorer publishes other numbers than the pages."""
    path = layout.root / PACKAGED_RULES
    fix = "the scorer package carries other scoring rules than platform_config/; run `make wheel`"
    if not path.is_file():
        return [Provenance(str(PACKAGED_RULES), 1, "(missing)", fix)]
    actual = path.read_text(encoding="utf-8").splitlines()
    wanted = expected.splitlines()
    if actual == wanted:
        return []
    line = next((i for i, (a, b) in enumerate(zip(actual, wanted, strict=False), start=1) if a != b), None)
    line = line or min(len(actual), len(wanted)) + 1
    excerpt = actual[line - 1].strip() if line <= len(actual) else "(end of file)"
    return [Provenance(str(PACKAGED_RULES), line, excerpt, fix)]
