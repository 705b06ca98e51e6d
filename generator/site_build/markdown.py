"""The Markdown stage: every page of both editions and every kit file, rendered in memory from the config."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from generator import scorer_bridge
from generator.config import Config, load_config
from generator.kit_data import constants_source, kit_download, kit_values
from generator.pages.derive import tracked
from generator.pages.downloads import Artefact
from generator.pages.editions import EDITIONS, EN, ZH, ZH_NOT_FOUND, Edition, interface_strings, zh_context
from generator.pages.site import PAGES, Fragments, site_context
from generator.pages.wording import Wording, load_wordings, sayer
from generator.paths import Layout
from generator.pdf.printed import PDF_FOLDER, PrintedPdf
from generator.render import environment, mark_as_tracked, render
from generator.rules_export import scoring_rules_json
from generator.site_build.standings import board_pages
from starter_kit.kit import CONNECTION_TEST_SECTION, KIT_FILES, connection_test_files, kit_contents, kit_zip


@dataclass(frozen=True)
class Rendered:
    pages: dict[str, str]
    kit: dict[str, str]  # path in the kit zip -> rendered text
    kit_zip: bytes
    fragments: Fragments
    config: Config
    # None when the pages were rendered for print, which shows the editor's example without serving a wheel.
    wheel: scorer_bridge.ScorerWheel | None
    artefacts: list[Artefact]
    # The Traditional Chinese (Hong Kong) edition: the same pages from the same model, and its 404 page's body.
    zh_pages: dict[str, str]
    zh_not_found: str


def artefacts(
    config: Config,
    kit: dict[str, str],
    kit_zip_bytes: bytes,
    wheel: scorer_bridge.ScorerWheel | None,
    pdfs: Sequence[PrintedPdf],
) -> list[Artefact]:
    """Every file the site offers for download, in the order the Downloads section lists them.

    The one list: the build writes exactly these bytes into the site and the pages list exactly these files,
    each with the size and sha256 of these bytes. A new artefact is added here.
    """
    files = [
        Artefact(
            "starter_kit",
            f"assets/kit/{config.site.starter_kit.zip_name}",
            "Starter kit (both servers, the connection-test client and its clips, a Dockerfile)",
            kit_zip_bytes,
        ),
        Artefact("python_server", "assets/kit/server.py", "Python server", kit["server.py"].encode()),
        Artefact("node_server", "assets/kit/server.mjs", "Node server", kit["server.mjs"].encode()),
        Artefact(
            "scoring_rules",
            "scoring-rules.json",
            "Scoring rules the scorer carries",
            scoring_rules_json(config).encode(),
        ),
    ]
    if wheel is not None:
        files.append(
            Artefact(
                "scorer_wheel", f"assets/wheels/{wheel.path.name}", "Scorer wheel", wheel.path.read_bytes()
            )
        )
    files += [Artefact(f"pdf:{pdf.name}", f"{PDF_FOLDER}/{pdf.name}", pdf.name, pdf.data) for pdf in pdfs]
    return files


# The print edition's stand-in for the editors: (config, the scored sample, the edition's code) -> (full, compact)
# markup.
PrintEditors = Callable[[Config, scorer_bridge.EditorSample, str], tuple[str, str]]


@dataclass(frozen=True)
class Sources:
    """What every rendering of one build shares, made once: the config, the template environment, the kit (its
    text, the plain text in its zip, the zip) and each edition's scored editor sample."""

    layout: Layout
    config: Config
    env: jinja2.Environment
    mark: bool
    kit: dict[str, str]
    plain_kit: dict[str, str]
    kit_zip: bytes
    samples: dict[str, scorer_bridge.EditorSample]
    # What a page says on screen and what paper prints instead (docs/print/wording.yaml).
    wordings: dict[str, Wording]


def load_sources(
    layout: Layout, *, config_dir: Path | None = None, mark: bool = False, keys: bool = False
) -> Sources:
    """Load the config and render the kit. With mark=True, tracked values are bracketed for the check (with
    keys=True, each bracket also names the value's config keys)."""
    config = load_config(config_dir or layout.config)
    env = environment(layout.template_dirs(), mark=mark, keys=keys)
    kit = render_kit(env, config)
    # The zip holds the plain rendering even when the check brackets tracked values in `kit`.
    plain = kit if not mark else render_kit(environment(layout.template_dirs(), mark=False), config)
    client = connection_test_files(
        constants=constants_source(config),
        clip_count=config.protocol.connection_test.clips,
        clips=layout.clips,
    )
    kit_zip_bytes = kit_zip(kit_contents(plain, client))
    # The client's constants are checked like every kit file; the zip already holds their plain copy.
    kit["starter_kit/connection_test/constants.py"] = constants_source(config, mark=mark)
    # The sample drawn in each edition's words: the drawing's legend and sentences are in the page's language.
    samples = {
        edition.code: scorer_bridge.editor_sample(layout.editor_examples, config, language=edition.code)
        for edition in EDITIONS
    }
    wordings = load_wordings(layout.root, config)
    return Sources(layout, config, env, mark, kit, plain, kit_zip_bytes, samples, wordings)


def render_all(
    layout: Layout,
    *,
    config_dir: Path | None = None,
    mark: bool = False,
    issue_pdfs: Sequence[Mapping[str, str]] = (),
    keys: bool = False,
    pdf_files: Sequence[PrintedPdf] = (),
    results: Path | None = None,
    without_bad_records: bool | None = None,
    sources: Sources | None = None,
) -> Rendered:
    """Render every page of both editions and every kit file in memory for the web, from `sources` when given
    (a build renders for print and for the web from the same), else from the config in `config_dir` (see
    load_sources for `mark` and `keys`).

    The standings come from `results` (default: $CVB_RESULTS, else none: the standings say results are to come). A refused
    record stops the build unless `without_bad_records` (default: $CVB_BUILD_WITHOUT_BAD_RECORDS=1) is set."""
    return _render_for_web(
        sources or load_sources(layout, config_dir=config_dir, mark=mark, keys=keys),
        issue_pdfs=issue_pdfs,
        pdf_files=pdf_files,
        results=results,
        without_bad_records=without_bad_records,
    )


def render_print(
    sources: Sources,
    print_editors: PrintEditors,
    *,
    issue_pdfs: Sequence[Mapping[str, str]] = (),
    pdf_files: Sequence[PrintedPdf] = (),
) -> Rendered:
    """Every page as printed: the print edition's stand-in for the editors, no wheel, no standings."""
    config = sources.config

    def printed(edition: Edition) -> dict[bool, str]:
        full, compact_markup = print_editors(config, sources.samples[edition.code], edition.code)
        return {False: full, True: compact_markup}

    return _render_pages(
        sources.env,
        config,
        sources.kit,
        sources.kit_zip,
        printed,
        sources.mark,
        wheel=None,
        wordings=sources.wordings,
        on_paper=True,
        issue_pdfs=issue_pdfs,
        files=artefacts(config, sources.plain_kit, sources.kit_zip, None, pdf_files),
    )


def _render_for_web(
    sources: Sources,
    *,
    issue_pdfs: Sequence[Mapping[str, str]],
    pdf_files: Sequence[PrintedPdf],
    results: Path | None,
    without_bad_records: bool | None,
) -> Rendered:
    layout, config = sources.layout, sources.config
    wheel = scorer_bridge.find_wheel(layout.wheels)
    html_env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(layout.editor_web)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
    )

    def editors_for(edition: Edition) -> dict[bool, str]:
        # The editor's assets are the site root's; an edition below the root reaches them one level further up.
        up = "../" * edition.prefix.count("/")
        return {
            compact: scorer_bridge.editor_markup(
                html_env,
                sample=sources.samples[edition.code],
                wheel=wheel,
                # The full editor sits on /methodology/, the compact one on the guide at the edition's root.
                asset_base=up + ("assets" if compact else "../assets"),
                max_chars=config.site.editor.max_chars,
                compact=compact,
                ui=interface_strings(config, edition.code),
            )
            for compact in (False, True)
        }

    return _render_pages(
        sources.env,
        config,
        sources.kit,
        sources.kit_zip,
        editors_for,
        sources.mark,
        wheel=wheel,
        wordings=sources.wordings,
        on_paper=False,
        issue_pdfs=issue_pdfs,
        # Downloads are the plain bytes the site serves, whatever brackets the check adds to `kit`.
        files=artefacts(config, sources.plain_kit, sources.kit_zip, wheel, pdf_files),
        extra_pages=lambda context, edition: board_pages(
            layout,
            config,
            sources.env,
            context,
            edition,
            results=results,
            without_bad_records=without_bad_records,
        ),
    )


def _render_pages(
    env: jinja2.Environment,
    config: Config,
    kit: dict[str, str],
    kit_zip_bytes: bytes,
    editors_for: Callable[[Edition], dict[bool, str]],
    mark: bool,
    *,
    wheel: scorer_bridge.ScorerWheel | None,
    wordings: Mapping[str, Wording],
    # The PDFs' render: sentences that ask the reader to act on the page take their paper wording.
    on_paper: bool,
    issue_pdfs: Sequence[Mapping[str, str]],
    files: list[Artefact],
    # Pages rendered from each edition's context beside the fixed ones (the standings); none in print.
    extra_pages: Callable[[dict[str, Any], Edition], dict[str, str]] | None = None,
) -> Rendered:
    def fragments_for(edition: Edition) -> Fragments:
        editors = editors_for(edition)
        return Fragments(
            python_server=kit["server.py"],
            node_server=kit["server.mjs"],
            dockerfile=kit["Dockerfile"],
            kit_download=kit_download(config, kit_zip_bytes),
            # Scorer output (figures of the example, the wheel's hash) is computed, not typed: mark it as such.
            editor=_as_scorer_output(editors[False], mark),
            compact_editor=_as_scorer_output(editors[True], mark),
            normalisation_rows=[
                {k: _as_scorer_output(v, mark) for k, v in row.items()}
                for row in scorer_bridge.normalisation_rows()
            ],
            scorer_signature=_as_scorer_output(scorer_bridge.scorer_signature(), mark),
            number_weight_rows=[
                {k: _as_scorer_output(v, mark) for k, v in row.items()}
                for row in scorer_bridge.number_weight_rows()
            ],
            issue_pdfs=[{k: _as_scorer_output(v, mark) for k, v in row.items()} for row in issue_pdfs],
        )

    fragments = fragments_for(EN)
    context = site_context(config, fragments, artefacts=files)
    context.update(on_paper=on_paper, say=sayer(wordings, config, language="en", on_paper=on_paper))
    pages = {page.output: render(env, page.template, context) for page in PAGES}
    if extra_pages is not None:
        pages.update(extra_pages(context, EN))
    zh = zh_context(config, fragments_for(ZH), artefacts=files)
    zh.update(on_paper=on_paper, say=sayer(wordings, config, language="zh", on_paper=on_paper))
    zh_pages = {page.output: render(env, page.template, zh) for page in ZH.pages}
    if extra_pages is not None:
        zh_pages.update(extra_pages(zh, ZH))
    return Rendered(
        pages=pages,
        kit=kit,
        kit_zip=kit_zip_bytes,
        fragments=fragments,
        config=config,
        wheel=wheel,
        artefacts=files,
        zh_pages=zh_pages,
        zh_not_found=render(env, ZH_NOT_FOUND, zh),
    )


def render_kit(env: jinja2.Environment, config: Config) -> dict[str, str]:
    context: dict[str, Any] = {"cfg": tracked(config), "kit": kit_values(config)}
    # The README's section on the connection-test client the zip carries beside the servers.
    context["connection_test"] = render(env, CONNECTION_TEST_SECTION, context).strip()
    return {path: render(env, template, context) for path, template in KIT_FILES.items()}


def _as_scorer_output(text: str, mark: bool) -> str:
    return mark_as_tracked(text, mark=mark)
