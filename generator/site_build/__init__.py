"""The site build in named stages; generator/build.py runs them in order.

config → `markdown.load_sources` (the config read, the kit rendered, the editor's samples scored: once) → the
pages for print → PDFs (generator/pdf/issue.py) → the pages for the web (`markdown.render_all`, the standings
from `standings`) → `docs_tree` (the Markdown, the downloads and the editor's runtime from `assets`, written for
mkdocs) → `mkdocs_run` per edition (copied by `edition_cache` when its inputs are unchanged), with the project
plugin `plugin` on mkdocs' own events (the Chinese slugs, the search words of `search`, the Chinese 404 page, the
HTML finishing, the search index finished by `search` with the synonyms of search_synonyms.yaml) → precompress (generator/precompress.py) → swap (generator/atomic.py).
"""
