"""One content model, two editions: every page is a sequence of sections (split at its headings, in order), and
each section states the same facts in both editions. A section's facts are the config values it prints (read
from the tracked render, which brackets each value with its config keys), its `code` spans, its code blocks and
its URLs; the sentences around them are each edition's own. A sentence dropped from one edition drops its facts,
and this test names the page, the section and the facts."""

from __future__ import annotations

import functools
import re

from generator.build import Rendered, render_all
from generator.paths import Layout
from generator.render import MARK_CLOSE, MARK_KEYS, MARK_OPEN

LAYOUT = Layout()
_MARK = re.compile(f"{MARK_OPEN}[^{MARK_CLOSE}]*?{MARK_KEYS}([^{MARK_CLOSE}]*){MARK_CLOSE}")
_MARKERS = re.compile(f"[{MARK_OPEN}{MARK_CLOSE}]|{MARK_KEYS}[^{MARK_CLOSE}]*")
_FENCE = re.compile(r"```.*?```", re.S)
_HEADING = re.compile(r"^(#{1,4} .*)$", re.M)

# Facts one edition states in its own way, by (page, section index, fact). Each says why.
ALLOWED: dict[tuple[str, int, str], str] = {
    # The English states the headers value as the config words it ("none"); the Chinese words it as a sentence
    # chosen on that value (its config text is English, and a Chinese sentence reads better than a quoted word).
    ("index.md", 7, "key:protocol.transport.headers_sent"): "worded by the Chinese template",
}
# The scorer engineer's section (the normalisation rules, from the scorer's own code): the Chinese edition shows
# each rule's identifier as code and states the fillers policy beside the rules; the English names the rules in
# words and states the fillers policy on the guide.
ALLOWED_SECTIONS: dict[tuple[str, str], str] = {
    ("methodology.md", "## Normalisation"): "rule identifiers shown as code in Chinese; fillers stated here",
}


# Config values that name a glossary term (the draw's seed is kept per "window"): the English prints the value,
# the Chinese prints the term's Chinese, which the render marks with the glossary's key instead.
TERM_VALUES = frozenset({"key:rounds.draw.seeded_per"})


def _ignored(fact: str) -> bool:
    # Glossary terms are words, not facts; pillar names are what the English prose says in its own words
    # ("recognition") where the Chinese prints the configured name.
    if fact in TERM_VALUES:
        return True
    return fact.startswith(("key:glossary.", "key:scoring.pillars.")) and (
        fact.startswith("key:glossary.") or fact.endswith(".name")
    )


def sections(page: str) -> list[tuple[str, str]]:
    parts = _HEADING.split(page)
    return [("(top)", parts[0])] + [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def facts(text: str) -> set[str]:
    found = {f"key:{key}" for match in _MARK.finditer(text) for key in match.group(1).split(",") if key}
    plain = _MARKERS.sub("", text)
    found |= {f"block:{block}" for block in _FENCE.findall(plain)}
    prose = _FENCE.sub(" ", plain)
    found |= {f"code:{code}" for code in re.findall(r"`([^`\n]+)`", prose)}
    found |= {f"url:{url.rstrip('.,;:')}" for url in re.findall(r"https?://[^\s>)\]<]+", prose)}
    return {fact for fact in found if not _ignored(fact)}


@functools.cache
def rendered() -> Rendered:
    return render_all(LAYOUT, mark=True, keys=True)


def differences(name: str, english: str, chinese: str) -> list[str]:
    en, zh = sections(english), sections(chinese)
    if len(en) != len(zh):
        heads = [_MARKERS.sub("", h) for h, _ in en], [_MARKERS.sub("", h) for h, _ in zh]
        return [f"{name}: {len(en)} sections in English, {len(zh)} in Chinese: {heads}"]
    found: list[str] = []
    for index, ((heading, en_text), (_, zh_text)) in enumerate(zip(en, zh, strict=True)):
        heading = _MARKERS.sub("", heading)
        if (name, heading) in ALLOWED_SECTIONS:
            continue
        en_facts, zh_facts = facts(en_text), facts(zh_text)
        for fact in sorted(en_facts ^ zh_facts):
            if (name, index, fact) not in ALLOWED:
                side = "English" if fact in en_facts else "Chinese"
                found.append(f"{name} section {index} ({heading}): only the {side} has {fact}")
    return found


def test_every_section_states_the_same_facts_in_both_editions() -> None:
    result = rendered()
    assert set(result.pages) == set(result.zh_pages)
    found = [
        p
        for name in sorted(result.pages)
        for p in differences(name, result.pages[name], result.zh_pages[name])
    ]
    assert not found, "\n".join(found)


def test_the_allowances_are_still_needed() -> None:
    result = rendered()
    for name, index, fact in ALLOWED:
        en, zh = sections(result.pages[name])[index][1], sections(result.zh_pages[name])[index][1]
        assert fact in facts(en) ^ facts(zh), (name, index, fact)


def test_a_dropped_sentence_or_heading_is_caught() -> None:
    result = rendered()
    english, chinese = result.pages["integration.md"], result.zh_pages["integration.md"]
    assert not differences("integration.md", english, chinese)
    dropped = re.sub(r"計劃本身在 <[^>]*> 提供套件。", "", chinese)
    assert dropped != chinese
    assert any("starter-kit" in p for p in differences("integration.md", english, dropped))
    merged = re.sub(r"^## 常見的陷阱$", "", chinese, flags=re.M)
    assert merged != chinese
    assert differences("integration.md", english, merged)
