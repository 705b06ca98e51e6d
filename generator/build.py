"""The build shell: config → Markdown → mkdocs → site/, written to a temporary folder and swapped in whole."""

from __future__ import annotations

import gzip
import hashlib
import importlib
import json
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import yaml
from cvb_scorer.rules import rules_from_json

from generator import scorer_bridge
from generator.atomic import swap_in
from generator.config import Config, load_config
from generator.pages.board import BoardModel, board_model, standing_rows
from generator.pages.derive import tracked
from generator.pages.downloads import Artefact
from generator.pages.editions import (
    EDITIONS,
    EN,
    ZH,
    ZH_NOT_FOUND,
    Edition,
    interface_strings,
    zh_context,
)
from generator.pages.markup import finish_page
from generator.pages.site import PAGES, Fragments, site_context
from generator.paths import Layout
from generator.precompress import precompress_tree
from generator.render import environment, mark_as_tracked, render
from generator.results.records import ResultsFolderError, draw_spec, load_folder
from generator.rules_export import scoring_rules_json
from generator.runtime_assets import LOCK_FILE, runtime_layout, trimmed_lock
from starter_kit.connection_test.bundle import constants_source
from starter_kit.kit import (
    CONNECTION_TEST_SECTION,
    KIT_FILES,
    connection_test_files,
    kit_contents,
    kit_download,
    kit_values,
    kit_zip,
)

if TYPE_CHECKING:
    from generator.pdf.issue import PrintedPdf

EDITOR_ASSETS = ("early.js", "editor.js", "editor_state.js", "worker.js", "memory.mjs", "editor.css")
SERVICE_WORKER = "sw.js"
# Runs of Chinese number characters (三千二百五十) that the search index keeps as one word.
ZH_NUMBER_RUN = re.compile("[零〇一二兩三四五六七八九十百千萬億廿卅]{2,}")
SEARCH_WORD_FREQUENCY = 100_000
# A Python callable in mkdocs' YAML: the settings are written with safe_dump, which cannot write the tag, so a
# placeholder stands in for it and is replaced in the text.
UNICODE_SLUGS = "cvb-unicode-slugs"
UNICODE_SLUGS_YAML = "!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}"


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
    from generator.pdf.issue import PDF_FOLDER  # the printer imports this module

    files += [Artefact(f"pdf:{pdf.name}", f"{PDF_FOLDER}/{pdf.name}", pdf.name, pdf.data) for pdf in pdfs]
    return files


# The print edition's stand-in for the editors: (config, the scored sample) -> (full, compact) markup.
PrintEditors = Callable[[Config, scorer_bridge.EditorSample], tuple[str, str]]


def render_all(
    layout: Layout,
    *,
    config_dir: Path | None = None,
    mark: bool = False,
    print_editors: PrintEditors | None = None,
    issue_pdfs: Sequence[Mapping[str, str]] = (),
    keys: bool = False,
    pdf_files: Sequence[PrintedPdf] = (),
    results: Path | None = None,
    without_bad_records: bool | None = None,
) -> Rendered:
    """Render every page of both editions and every kit file in memory. With mark=True, tracked values are
    bracketed for the check (with keys=True, each bracket also names the value's config keys).

    The standings come from `results` (default: $CVB_RESULTS, else the shipped example records). A refused
    record stops the build unless `without_bad_records` (default: $CVB_BUILD_WITHOUT_BAD_RECORDS=1) is set."""
    config = load_config(config_dir or layout.config)
    env = environment(layout.template_dirs(), mark=mark, keys=keys)
    kit = render_kit(env, config)
    # The zip holds the plain rendering even when the check brackets tracked values in `kit`.
    plain = kit if not mark else render_kit(environment(layout.template_dirs(), mark=False), config)
    kit_zip_bytes = kit_zip(kit_contents(plain, connection_test_files(config, clips=layout.clips)))
    # The client's constants are checked like every kit file; the zip already holds their plain copy.
    kit["starter_kit/connection_test/constants.py"] = constants_source(config, mark=mark)
    # The sample drawn in each edition's words: the drawing's legend and sentences are in the page's language.
    samples = {
        edition.code: scorer_bridge.editor_sample(layout.editor_examples, config, language=edition.code)
        for edition in EDITIONS
    }
    if print_editors is not None:

        def printed(edition: Edition) -> dict[bool, str]:
            full, compact_markup = print_editors(config, samples[edition.code])
            return {False: full, True: compact_markup}

        return _render_pages(
            env,
            config,
            kit,
            kit_zip_bytes,
            printed,
            mark,
            wheel=None,
            issue_pdfs=issue_pdfs,
            files=artefacts(config, plain, kit_zip_bytes, None, pdf_files),
        )
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
                sample=samples[edition.code],
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
        env,
        config,
        kit,
        kit_zip_bytes,
        editors_for,
        mark,
        wheel=wheel,
        issue_pdfs=issue_pdfs,
        # Downloads are the plain bytes the site serves, whatever brackets the check adds to `kit`.
        files=artefacts(config, plain, kit_zip_bytes, wheel, pdf_files),
        extra_pages=lambda context, edition: board_pages(
            layout, config, env, context, edition, results=results, without_bad_records=without_bad_records
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
    pages = {page.output: render(env, page.template, context) for page in PAGES}
    if extra_pages is not None:
        pages.update(extra_pages(context, EN))
    zh = zh_context(config, fragments_for(ZH), artefacts=files)
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


def board_pages(
    layout: Layout,
    config: Config,
    env: jinja2.Environment,
    context: dict[str, Any],
    edition: Edition,
    *,
    results: Path | None,
    without_bad_records: bool | None,
) -> dict[str, str]:
    """The standings page and one page per entrant of one edition, from the run records in the results folder
    (the model is computed once and shared: both editions word the same facts)."""
    folder = results or Path(os.environ.get("CVB_RESULTS") or layout.root / "results" / "example")
    if without_bad_records is None:
        without_bad_records = os.environ.get("CVB_BUILD_WITHOUT_BAD_RECORDS") == "1"
    files = tuple(
        (str(p.relative_to(folder)), p.stat().st_mtime_ns, p.stat().st_size)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    )
    # The same records seen from a project copy (a symlinked folder) give the same model: key on where the
    # files really are and on how the pages name them, not on the path taken to reach them.
    shown = str(folder.relative_to(layout.root)) if folder.is_relative_to(layout.root) else str(folder)
    key = (
        str(folder.resolve()),
        shown,
        files,
        config.scoring.model_dump_json() + config.rounds.model_dump_json() + repr(draw_spec(config).rounds),
    )
    if key not in _BOARD_CACHE:
        _BOARD_CACHE.clear()  # one folder state at a time: a model holds every resample
        _BOARD_CACHE[key] = _board_model(folder, layout.root, config)
    model, refused = _BOARD_CACHE[key]
    if refused and not without_bad_records:
        listing = "\n".join(f"  {r}" for r in refused)
        raise BadRecordsError(
            f"{len(refused)} run record(s) were refused, so the standings were not built:\n{listing}\n"
            "Fix or remove them, or build without them explicitly (cvb build --without-bad-records, or "
            "CVB_BUILD_WITHOUT_BAD_RECORDS=1), which lists them on the standings page."
        )
    pages = {"standings.md": render(env, edition.templates + "standings.md.j2", {**context, "board": model})}
    for page in model.entrants:
        pages[f"entrants/{page.slug}.md"] = render(
            env, edition.templates + "entrant.md.j2", {**context, "board": model, "page": page}
        )
    return pages


# The board's model, computed once per results-folder state and config in a process: its bootstraps dominate a
# build, and the check renders the same pages a second time.
_BOARD_CACHE: dict[tuple[str, str, tuple[tuple[str, int, int], ...], str], tuple[BoardModel, list[str]]] = {}


def _board_model(folder: Path, root: Path, config: Config) -> tuple[BoardModel, list[str]]:
    rules = rules_from_json(scoring_rules_json(config))
    spec = draw_spec(config)
    try:
        loaded = load_folder(folder, rules=rules, spec=spec, root=root)
    except ResultsFolderError as exc:
        raise BadRecordsError(f"The results folder {folder} cannot be read: {exc}") from None
    refused = [str(p) for p in loaded.problems]
    grouped = standing_rows(config, loaded, rules=rules)  # the bootstraps: once per build
    return board_model(config, loaded, rules=rules, refused=refused, grouped=grouped), refused


class BadRecordsError(RuntimeError):
    """A run record (or the results folder) was refused; the message lists each file and reason."""


def _as_scorer_output(text: str, mark: bool) -> str:
    return mark_as_tracked(text, mark=mark)


def build_site(
    layout: Layout,
    *,
    out: Path | None = None,
    config_dir: Path | None = None,
    site_url: str | None = None,
    results: Path | None = None,
    without_bad_records: bool | None = None,
) -> Path:
    """Build the whole site into a fresh folder and swap it in; on any error `out` is left as it was.

    `site_url` defaults to the config's public base URL. Serving the site elsewhere (a loopback port) needs that
    address instead: mkdocs-material keeps site_url's port when it decides which links are the site's own.
    """
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    target = (out or layout.site).resolve()
    from generator.pdf.issue import download_rows, print_issue

    # The PDFs are printed first: the changelog lists them with their sizes and hashes.
    pdfs = print_issue(layout, config_dir=config_dir)
    rendered = render_all(
        layout,
        config_dir=config_dir,
        issue_pdfs=download_rows(pdfs),
        pdf_files=pdfs,
        results=results,
        without_bad_records=without_bad_records,
    )
    assert rendered.wheel is not None  # rendered for the web, so the wheel was found
    stale = scorer_bridge.stale_wheel_problem(rendered.wheel, scoring_rules_json(rendered.config))
    if stale:
        raise StaleWheelError(stale)
    snapshot = start_up_snapshot(layout, rendered.wheel)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".cvb-build-", dir=target.parent))
    try:
        docs = work / "docs"
        docs.mkdir()
        for name, text in rendered.pages.items():
            (docs / name).parent.mkdir(parents=True, exist_ok=True)
            (docs / name).write_text(text, encoding="utf-8")
        _copy_assets(layout, docs / "assets", rendered, snapshot)
        for artefact in rendered.artefacts:
            destination = docs / artefact.path
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(artefact.data)
        zh_docs = work / "docs-zh"
        zh_docs.mkdir()
        for name, text in rendered.zh_pages.items():
            (zh_docs / name).parent.mkdir(parents=True, exist_ok=True)
            (zh_docs / name).write_text(text, encoding="utf-8")
        user_dict = work / "jieba-user.txt"
        user_dict.write_text(
            search_words(rendered.config, [*rendered.pages.values(), *rendered.zh_pages.values()]),
            encoding="utf-8",
        )
        base_url = site_url or rendered.config.platform.urls.base + "/"
        # Each edition's pages as rendered (the standings and entrants' pages come from the records).
        outputs = {EN.code: tuple(rendered.pages), ZH.code: tuple(rendered.zh_pages)}
        site = work / "site"
        _run_mkdocs(
            layout,
            edition=EN,
            docs=docs,
            site=site,
            work=work,
            site_name=rendered.config.platform.programme.name,
            site_url=base_url,
            user_dict=user_dict,
            outputs=outputs,
        )
        zh_site = work / "site-zh"
        _run_mkdocs(
            layout,
            edition=ZH,
            docs=zh_docs,
            site=zh_site,
            work=work,
            site_name=rendered.config.glossary.zh_text.get(
                "platform.programme.name", rendered.config.platform.programme.name
            ),
            site_url=base_url + ZH.prefix,
            user_dict=user_dict,
            outputs=outputs,
            theme_dir=_zh_theme(layout, work, rendered.zh_not_found),
        )
        zh_site.rename(site / ZH.prefix.rstrip("/"))
        finish_html(site)
        precompress_tree(site, cache=layout.root / "build" / "cache" / "precompressed")
        swap_in(site, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


@dataclass(frozen=True)
class StartUpSnapshot:
    """The Pyodide memory snapshot with this build's scorer imported (tools/snapshot_scorer.py)."""

    path: Path
    sha256: str
    # The wheels the worker installs after restoring it (the rest were needed only to make it).
    install_after_restore: tuple[str, ...]
    # The sha256 of the snapshot inflated: a browser that keeps an inflated copy checks it against this.
    inflated_sha256: str


def start_up_snapshot(layout: Layout, wheel: scorer_bridge.ScorerWheel) -> StartUpSnapshot:
    """The snapshot in build/snapshot/, refused unless it was made from this very scorer wheel."""
    record_path = layout.snapshot / "record.json"
    if not record_path.is_file():
        raise FileNotFoundError(
            f"{record_path} is missing; run `make site` to make the editor's start-up snapshot."
        )
    record = json.loads(record_path.read_text(encoding="utf-8"))
    if record["scorer_sha256"] != wheel.sha256:
        raise StaleSnapshotError(
            f"The editor's start-up snapshot in {layout.snapshot} was made from the scorer wheel with sha256 "
            f"{record['scorer_sha256']}, not from {wheel.path.name} ({wheel.sha256}) that this build serves; "
            "run `make site` to make it again."
        )
    path = layout.snapshot / str(record["snapshot"])
    return StartUpSnapshot(
        path,
        str(record["snapshot_sha256"]),
        tuple(str(name) for name in record.get("install_after_restore", [])),
        hashlib.sha256(gzip.decompress(path.read_bytes())).hexdigest(),
    )


def _copy_assets(layout: Layout, assets: Path, rendered: Rendered, snapshot: StartUpSnapshot) -> None:
    shutil.copytree(layout.static_assets, assets)
    editor = assets / "editor"
    editor.mkdir()
    for name in EDITOR_ASSETS:
        shutil.copy2(layout.editor_web / name, editor / name)
    # The pin that tools/fetch_pyodide.py verifies also names the files the site serves: one list, one place.
    pin = json.loads((layout.editor_web / "pyodide-pin.json").read_text(encoding="utf-8"))
    contents: dict[str, bytes] = {}
    for name in pin["files"]:
        source = layout.pyodide / name
        if not source.is_file():
            raise FileNotFoundError(
                f"Pyodide file {source} is missing; run `make pyodide` to fetch the pinned release."
            )
        data = source.read_bytes()
        contents[name] = trimmed_lock(data.decode("utf-8")) if name == LOCK_FILE else data
    pyodide_names = list(contents)
    wheel = rendered.wheel
    assert wheel is not None
    installed = {p.name: p for p in sorted(layout.wheels.glob("*.whl"))}
    for name, path in {**installed, snapshot.path.name: snapshot.path}.items():
        contents[name] = path.read_bytes()
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in contents.items()}
    runtime = runtime_layout(
        pyodide={name: digests[name] for name in pyodide_names},
        single={name: digest for name, digest in digests.items() if name not in pyodide_names},
    )
    for name, data in contents.items():
        destination = assets / runtime.path(name)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    # Beside the manifest, the scorer wheel also lies under its own name: the download the pages link to and
    # `cvb check` reads (written by the artefact list).
    wheels = assets / "wheels"
    wheels.mkdir()
    # The service worker must sit at the site root so its scope covers every page; the manifest says where.
    shutil.copy2(layout.editor_web / SERVICE_WORKER, assets.parent / SERVICE_WORKER)

    def beside_manifest(name: str) -> str:
        return f"../{runtime.path(name)}"

    manifest = {
        "scorer": wheel.path.name,
        "sha256": wheel.sha256,
        "service_worker": f"../../{SERVICE_WORKER}",
        # Every runtime file at an address named by its content (generator/runtime_assets.py): the service
        # worker answers them from its cache, and drops the ones no longer listed here.
        "runtime": {
            "pyodide": f"../{runtime.pyodide}",
            "scorer": beside_manifest(wheel.path.name),
            "packages": [beside_manifest(name) for name in installed],
            "files": sorted(beside_manifest(name) for name in runtime.files),
            # Each file's size in bytes, as a reader's browser receives it (decoded): the editor's loading bar.
            "sizes": {beside_manifest(name): len(data) for name, data in sorted(contents.items())},
        },
        # The worker restores the snapshot only if its bytes have this hash, then installs these wheels.
        "start_up_snapshot": {
            "path": beside_manifest(snapshot.path.name),
            "sha256": snapshot.sha256,
            "inflated_sha256": snapshot.inflated_sha256,
            "packages": [beside_manifest(name) for name in snapshot.install_after_restore],
        },
    }
    (wheels / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def finish_html(site: Path) -> None:
    """Hong Kong language tags on Chinese runs, break points in identifiers, reachable tables: every page,
    either edition (on a page already tagged Hong Kong Chinese the language step leaves the text alone)."""
    for path in sorted(site.rglob("*.html")):
        path.write_text(finish_page(path.read_text(encoding="utf-8")), encoding="utf-8")


class StaleWheelError(RuntimeError):
    """The scorer wheel carries scoring rules other than the config's."""


class StaleSnapshotError(StaleWheelError):
    """The editor's start-up snapshot was made from another scorer wheel than the one the build serves."""


class SiteGeneratorError(RuntimeError):
    """mkdocs refused the rendered Markdown; the message carries its warnings."""


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _run_mkdocs(
    layout: Layout,
    *,
    edition: Edition,
    docs: Path,
    site: Path,
    work: Path,
    site_name: str,
    site_url: str,
    user_dict: Path,
    outputs: Mapping[str, Sequence[str]],
    theme_dir: Path | None = None,
) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config as load_mkdocs_config
    from mkdocs.exceptions import Abort

    settings: dict[str, Any] = yaml.safe_load(layout.mkdocs_config.read_text(encoding="utf-8"))
    settings["site_name"] = site_name
    settings["site_url"] = site_url
    settings["docs_dir"] = str(docs)
    settings["site_dir"] = str(site)
    settings["theme"]["custom_dir"] = str(theme_dir or layout.root / settings["theme"]["custom_dir"])
    # Shared assets live once, at the site root; an edition below it reaches them one level up per folder.
    up = "../" * edition.prefix.count("/")
    settings["extra_css"] = [up + path for path in settings.get("extra_css", [])]
    settings["extra_css"].append(up + "assets/editor/editor.css")
    # After the theme's and the site's own styles: Hong Kong glyph shapes wherever a page marks Chinese zh-HK.
    settings["extra_css"].append(up + "assets/hk-fonts.css")
    # The site's own scripts live at the root too; an edition below it reaches them one level further up.
    settings["extra_javascript"] = [
        up + entry if isinstance(entry, str) else entry for entry in settings.get("extra_javascript", [])
    ]
    settings["extra_javascript"].append({"path": up + "assets/editor/editor.js", "type": "module"})
    _edition_settings(settings, edition, user_dict, outputs)
    config_file = work / f"mkdocs-{edition.code}.yml"
    text = yaml.safe_dump(settings, allow_unicode=True, sort_keys=False)
    config_file.write_text(text.replace(UNICODE_SLUGS, UNICODE_SLUGS_YAML), encoding="utf-8")
    # jieba (the search plugin's segmenter) reports loading its dictionary on every build; that is not news.
    # It sets its own logger to DEBUG when first imported, so import it before quietening it.
    importlib.import_module("jieba")
    logging.getLogger("jieba").setLevel(logging.WARNING)
    collected = _Collect()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collected)
    try:
        build(load_mkdocs_config(config_file=str(config_file)))
    except Abort as exc:
        warnings = "\n".join(f"  {m}" for m in collected.messages) or f"  {exc}"
        raise SiteGeneratorError(
            f"mkdocs refused the rendered pages, so site/ was left as it was; fix the template concerned:\n{warnings}"
        ) from None
    finally:
        mkdocs_log.removeHandler(collected)


def _edition_settings(
    settings: dict[str, Any], edition: Edition, user_dict: Path, outputs: Mapping[str, Sequence[str]]
) -> None:
    """The theme's language, the switcher to the other editions, and search that segments Chinese.
    `outputs`: each edition's rendered pages by edition code (what the nav and the switcher may link)."""
    settings["theme"]["language"] = edition.lang
    settings.setdefault("extra", {})["alternate"] = [
        {
            "name": other.name,
            # Relative to this edition's root; the switcher (docs/overrides/partials/alternate.html) appends
            # the page's own path, so each link goes to the same page in the other edition.
            "link": "../" * edition.prefix.count("/") + other.prefix,
            "lang": other.lang,
            # The page addresses the other edition has; a page it lacks links its home.
            "pages": [
                "" if output == "index.md" else output.removesuffix(".md") + "/"
                for output in outputs[other.code]
            ],
        }
        for other in EDITIONS
    ]
    # The navigation lists the pages this edition has.
    own = set(outputs[edition.code])
    settings["nav"] = [
        entry for entry in settings.get("nav", []) if not isinstance(entry, str) or entry in own
    ]
    if edition.code != "en":
        # Headings keep their Chinese in their anchors (#量度甚麼, not #_4): the default slug drops every
        # non-ASCII character and numbers what is left.
        for extension in settings.get("markdown_extensions", []):
            if isinstance(extension, dict) and "toc" in extension:
                extension["toc"]["slugify"] = UNICODE_SLUGS
    plugins: list[Any] = []
    for plugin in settings.get("plugins", []):
        if plugin == "search" or (isinstance(plugin, dict) and "search" in plugin):
            options = dict(plugin["search"] or {}) if isinstance(plugin, dict) else {}
            # Words jieba must keep whole (glossary terms, the pages' Chinese numbers): see search_words.
            options["jieba_dict_user"] = str(user_dict)
            plugin = {"search": options}
        plugins.append(plugin)
    settings["plugins"] = plugins


def search_words(config: Config, pages: Iterable[str]) -> str:
    """jieba's user dictionary: words the search index must hold whole, one per line with a high frequency.

    jieba splits 三千二百五十 into 三千 and 二百五十, and the browser does not segment a query, so a reader
    searching for the number would find nothing. The glossary's terms and every Chinese number on the pages
    are kept whole.
    """
    words = {term.zh for term in config.glossary.terms.values()}
    for text in pages:
        words.update(match.group(0) for match in ZH_NUMBER_RUN.finditer(text))
    return "".join(f"{word} {SEARCH_WORD_FREQUENCY}\n" for word in sorted(words) if " " not in word)


def _zh_theme(layout: Layout, work: Path, not_found_markdown: str) -> Path:
    """The theme overrides for the Chinese edition: the site's own, plus a 404 page in Chinese."""
    import markdown  # mkdocs' own Markdown (mypy: ignore_missing_imports in pyproject)

    theme = work / "overrides-zh"
    shutil.copytree(layout.root / "docs" / "overrides", theme)
    body = markdown.markdown(not_found_markdown, extensions=["attr_list", "md_in_html"])
    (theme / "404.html").write_text(
        '{% extends "main.html" %}\n{% block content %}\n{% raw %}' + body + "{% endraw %}\n{% endblock %}\n",
        encoding="utf-8",
    )
    return theme
