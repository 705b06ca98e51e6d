"""The build shell: config → Markdown → mkdocs → site/, written to a temporary folder and swapped in whole."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import yaml

from generator import scorer_bridge
from generator.atomic import swap_in
from generator.config import Config, load_config
from generator.pages.derive import tracked
from generator.pages.site import KIT_SAMPLES, PAGES, Fragments, site_context
from generator.paths import Layout
from generator.render import environment, mark_as_tracked, render
from generator.rules_export import scoring_rules_json
from starter_kit.connection_test.bundle import constants_source

EDITOR_ASSETS = ("editor.js", "editor_state.js", "worker.js", "editor.css")
SERVICE_WORKER = "sw.js"


@dataclass(frozen=True)
class Rendered:
    pages: dict[str, str]
    kit: dict[str, str]
    fragments: Fragments
    config: Config
    wheel: scorer_bridge.ScorerWheel


def render_all(layout: Layout, *, config_dir: Path | None = None, mark: bool = False) -> Rendered:
    """Render every page and kit file in memory. With mark=True, tracked values are bracketed for the check."""
    config = load_config(config_dir or layout.config)
    env = environment(layout.template_dirs(), mark=mark)
    kit = {name: render(env, template, {"cfg": tracked(config)}) for name, template in KIT_SAMPLES.items()}
    kit["connection_test_constants"] = constants_source(config, mark=mark)
    wheel = scorer_bridge.find_wheel(layout.wheels)
    html_env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(layout.editor_web)),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
    )
    sample = scorer_bridge.editor_sample(layout.editor_examples)
    editors = {
        compact: scorer_bridge.editor_markup(
            html_env,
            sample=sample,
            wheel=wheel,
            # The full editor sits on /methodology/, the compact one on the guide at the site root.
            asset_base="assets" if compact else "../assets",
            max_chars=config.site.editor.max_chars,
            compact=compact,
        )
        for compact in (False, True)
    }
    fragments = Fragments(
        python_server=kit["python_server"],
        node_server=kit["node_server"],
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
    )
    context = site_context(config, fragments)
    pages = {page.output: render(env, page.template, context) for page in PAGES}
    return Rendered(pages=pages, kit=kit, fragments=fragments, config=config, wheel=wheel)


def _as_scorer_output(text: str, mark: bool) -> str:
    return mark_as_tracked(text, mark=mark)


def build_site(
    layout: Layout, *, out: Path | None = None, config_dir: Path | None = None, site_url: str | None = None
) -> Path:
    """Build the whole site into a fresh folder and swap it in; on any error `out` is left as it was.

    `site_url` defaults to the config's public base URL. Serving the site elsewhere (a loopback port) needs that
    address instead: mkdocs-material keeps site_url's port when it decides which links are the site's own.
    """
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    target = (out or layout.site).resolve()
    rendered = render_all(layout, config_dir=config_dir)
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
            (docs / name).write_text(text, encoding="utf-8")
        _copy_assets(layout, docs / "assets", rendered, snapshot)
        (docs / "scoring-rules.json").write_text(scoring_rules_json(rendered.config), encoding="utf-8")
        site = work / "site"
        _run_mkdocs(
            layout,
            docs=docs,
            site=site,
            work=work,
            site_name=rendered.config.platform.programme.name,
            site_url=site_url or rendered.config.platform.urls.base + "/",
        )
        swap_in(site, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


@dataclass(frozen=True)
class StartUpSnapshot:
    """The Pyodide memory snapshot with this build's scorer imported (tools/snapshot_scorer.py)."""

    path: Path
    sha256: str


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
    return StartUpSnapshot(layout.snapshot / str(record["snapshot"]), str(record["snapshot_sha256"]))


def _copy_assets(layout: Layout, assets: Path, rendered: Rendered, snapshot: StartUpSnapshot) -> None:
    shutil.copytree(layout.static_assets, assets)
    editor = assets / "editor"
    editor.mkdir()
    for name in EDITOR_ASSETS:
        shutil.copy2(layout.editor_web / name, editor / name)
    pyodide = assets / "pyodide"
    pyodide.mkdir()
    # The pin that tools/fetch_pyodide.py verifies also names the files the site serves: one list, one place.
    pin = json.loads((layout.editor_web / "pyodide-pin.json").read_text(encoding="utf-8"))
    for name in pin["files"]:
        source = layout.pyodide / name
        if not source.is_file():
            raise FileNotFoundError(
                f"Pyodide file {source} is missing; run `make pyodide` to fetch the pinned release."
            )
        shutil.copy2(source, pyodide / name)
    wheels = assets / "wheels"
    wheels.mkdir()
    packages = sorted(p.name for p in layout.wheels.glob("*.whl"))
    for name in packages:
        shutil.copy2(layout.wheels / name, wheels / name)
    wheel = rendered.wheel
    # The service worker must sit at the site root so its scope covers every page; the manifest says where.
    shutil.copy2(layout.editor_web / SERVICE_WORKER, assets.parent / SERVICE_WORKER)
    shutil.copy2(snapshot.path, pyodide / snapshot.path.name)
    manifest = {
        "scorer": wheel.path.name,
        "sha256": wheel.sha256,
        "packages": packages,
        "service_worker": f"../../{SERVICE_WORKER}",
        # The worker restores the snapshot only if its bytes have this hash.
        "start_up_snapshot": {"path": f"../pyodide/{snapshot.path.name}", "sha256": snapshot.sha256},
    }
    (wheels / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    kit = assets / "kit"
    kit.mkdir()
    (kit / "server.py").write_text(rendered.kit["python_server"], encoding="utf-8")
    (kit / "server.mjs").write_text(rendered.kit["node_server"], encoding="utf-8")


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


def _run_mkdocs(layout: Layout, *, docs: Path, site: Path, work: Path, site_name: str, site_url: str) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config as load_mkdocs_config
    from mkdocs.exceptions import Abort

    settings: dict[str, Any] = yaml.safe_load(layout.mkdocs_config.read_text(encoding="utf-8"))
    settings["site_name"] = site_name
    settings["site_url"] = site_url
    settings["docs_dir"] = str(docs)
    settings["site_dir"] = str(site)
    settings["theme"]["custom_dir"] = str(layout.root / settings["theme"]["custom_dir"])
    settings.setdefault("extra_css", []).append("assets/editor/editor.css")
    settings.setdefault("extra_javascript", []).append({"path": "assets/editor/editor.js", "type": "module"})
    config_file = work / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(settings, allow_unicode=True, sort_keys=False), encoding="utf-8")
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
