"""The project's mkdocs plugin: what the site needs of each edition's build, on mkdocs' own events.

- `on_config`: a Chinese edition's headings keep their Chinese in their anchors (#量度甚麼, not #_4; the default
  slug drops every non-ASCII character and numbers what is left); jieba learns the words the search index must
  hold whole (generator/site_build/search.py).
- `on_env`: the edition's own 404 page, when it has one (the Chinese edition's, in Chinese).
- `on_post_page`, `on_post_template`: every HTML page finished (generator/pages/markup.py: Hong Kong language
  tags on Chinese runs, break points in identifiers, reachable tables), the 404 page included.
- `on_post_build`: the search index the theme's search plugin wrote (it runs first) finished
  (generator/site_build/search.py: code listings in a light field of their own, readers' words added).
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import jinja2
import markdown  # mkdocs' own Markdown
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin
from pymdownx.slugs import slugify

from generator.pages.editions import EN, Edition
from generator.pages.markup import finish_page
from generator.site_build.search import Groups, finish_index

NOT_FOUND = "404.html"
# jieba's own dictionary as first loaded (its word frequencies and their total), before any build's words.
_PRISTINE: tuple[dict[str, int], int] | None = None


def load_search_words(dictionary: str) -> None:
    """Give jieba (the search plugin's segmenter, one per process) its own dictionary plus these words, and
    nothing left from an earlier build: loading words adds their frequency to jieba's total each time, so a
    second build in the same process (`cvb serve`'s rebuilds) segmented the pages differently from the first."""
    global _PRISTINE
    # jieba reports loading its dictionary on every build; that is not news. It sets its own logger to DEBUG
    # when first imported, so import it before quietening it.
    import jieba

    logging.getLogger("jieba").setLevel(logging.WARNING)
    tokenizer = jieba.dt  # the instance whose methods jieba.cut_for_search and the search plugin call
    tokenizer.check_initialized()
    if _PRISTINE is None:
        _PRISTINE = (dict(tokenizer.FREQ), tokenizer.total)
    tokenizer.FREQ, tokenizer.total = dict(_PRISTINE[0]), _PRISTINE[1]
    jieba.load_userdict(io.StringIO(dictionary))


# mkdocs types its Config and BasePlugin but not their __init_subclass__.
class _NoOptions(Config):  # type: ignore[no-untyped-call]
    """The plugin takes its settings from the build, not from mkdocs.yml."""


class SitePlugin(BasePlugin[_NoOptions]):  # type: ignore[no-untyped-call]
    """One edition's build. `search_dictionary`: jieba's user dictionary (search.search_words);
    `not_found_markdown`: the body of the edition's own 404 page (None: the theme's); `search_groups`: the
    edition's synonym groups (search.search_groups)."""

    def __init__(
        self,
        *,
        edition: Edition,
        search_dictionary: str,
        not_found_markdown: str | None,
        search_groups: Groups = (),
    ) -> None:
        super().__init__()
        self.edition = edition
        self.search_dictionary = search_dictionary
        self.not_found_markdown = not_found_markdown
        self.search_groups = search_groups

    def on_config(self, config: Any) -> Any:
        if self.edition.code != EN.code:
            config.mdx_configs["toc"]["slugify"] = slugify(case="lower")
        load_search_words(self.search_dictionary)
        return config

    def on_env(self, env: jinja2.Environment, *, config: Any, files: Any) -> jinja2.Environment:
        if self.not_found_markdown is not None:
            body = markdown.markdown(self.not_found_markdown, extensions=["attr_list", "md_in_html"])
            page = (
                '{% extends "main.html" %}\n{% block content %}\n{% raw %}'
                + body
                + "{% endraw %}\n{% endblock %}\n"
            )
            assert env.loader is not None
            env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({NOT_FOUND: page}), env.loader])
        return env

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        return finish_page(output)

    def on_post_template(self, output_content: str, *, template_name: str, config: Any) -> str:
        return finish_page(output_content) if template_name.endswith(".html") else output_content

    def on_post_build(self, *, config: Any) -> None:
        # The theme's search plugin comes first in mkdocs.yml, so its on_post_build has written the index.
        path = Path(config["site_dir"]) / "search" / "search_index.json"
        index = json.loads(path.read_text(encoding="utf-8"))
        finished = finish_index(index, groups=self.search_groups)
        # As compact as the theme writes it: the index is fetched by every visitor who searches.
        path.write_text(json.dumps(finished, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
