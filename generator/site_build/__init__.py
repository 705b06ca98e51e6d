"""The site build in named stages; generator/build.py runs them in order.

config → `markdown` (every page of both editions and the kit, rendered once; the standings from `standings`)
→ PDFs (generator/pdf/issue.py) → `docs_tree` (the Markdown, the downloads and the editor's runtime from
`assets`, written for mkdocs) → `mkdocs_run` per edition, with the project plugin `plugin` on mkdocs' own events
(the Chinese slugs, the search words of `search`, the Chinese 404 page, the HTML finishing) → precompress
(generator/precompress.py) → swap (generator/atomic.py).
"""
