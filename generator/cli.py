"""`cvb`: build, check and serve the site from platform_config/."""

from __future__ import annotations

import argparse
import functools
import http.server
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from generator import issue_cli
from generator.build import BadRecordsError, SiteGeneratorError, StaleWheelError, SynonymsError
from generator.config import ConfigError, load_config
from generator.pages.wording import WordingError
from generator.paths import Layout
from generator.pdf.printer import PrintError
from generator.review import cli as review_cli
from generator.rules_export import scoring_rules_json, write_rules
from runner.cli import DESCRIPTION as RUN_DESCRIPTION
from runner.cli import add_arguments as add_run_arguments
from starter_kit.connection_test.cli import DESCRIPTION, add_arguments

# What a build can fail on that the user can fix: each carries its own sentence, never a traceback.
BUILD_ERRORS: tuple[type[Exception], ...] = (
    FileNotFoundError,
    SiteGeneratorError,
    StaleWheelError,
    BadRecordsError,
    WordingError,
    SynonymsError,
    PrintError,
)
# cvb serve also keeps the last good site when the config itself does not load.
REBUILD_ERRORS: tuple[type[Exception], ...] = (ConfigError, *BUILD_ERRORS)


def _build(args: argparse.Namespace, layout: Layout) -> int:
    from generator.build import build_site

    started = time.perf_counter()
    target = build_site(
        layout,
        out=args.out,
        config_dir=args.config,
        site_url=args.site_url,
        results=args.results,
        without_bad_records=args.without_bad_records or None,
    )
    print(f"Built {target} in {time.perf_counter() - started:.1f} s.")
    return 0


def _check(args: argparse.Namespace, layout: Layout) -> int:
    from generator.publication.report import run_check

    return run_check(layout, config_dir=args.config, site=args.site, results=args.results)


def _rules(args: argparse.Namespace, layout: Layout) -> int:
    config = load_config(args.config or layout.config)
    if args.out is None:
        sys.stdout.write(scoring_rules_json(config))
    else:
        write_rules(config, args.out)
    return 0


def _serve(args: argparse.Namespace, layout: Layout) -> int:
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    from generator import serve
    from generator.build import build_site

    # Ctrl-C ends the server even when it was started with SIGINT ignored (a shell's background job inherits
    # that, and Python then leaves it ignored): the default handler raises KeyboardInterrupt, in the first
    # build too.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    site_url = f"http://127.0.0.1:{args.port}/"
    config_dir = args.config or layout.config
    target = (args.out or layout.site).resolve()
    # The address is taken before the build (seconds), so that a port in use is said at once, not after it;
    # nothing is answered until serve_forever, by when the handler names the built directory.
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), serve.SiteHandler)
    except OSError as exc:
        print(
            f"cvb serve: cannot listen on 127.0.0.1:{args.port} ({exc.strerror}); another server may be using "
            "that port: stop it, or pass another with --port.",
            file=sys.stderr,
        )
        return 2
    changed = threading.Event()

    class Changed(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            changed.set()

    # Watched before the first build, and its inputs read before it: a change made while it builds is then a
    # change, not the state it started from.
    observer = Observer()
    for root in serve.watched_roots(layout, config_dir):
        if root.exists():
            observer.schedule(Changed(), str(root if root.is_dir() else root.parent), recursive=root.is_dir())
    observer.start()
    code = serve.code_digest()

    def inputs() -> str:
        return serve.inputs_digest(layout, config_dir, code=code, site_url=site_url)

    def build(digest: str) -> None:
        build_site(layout, out=target, config_dir=args.config, site_url=site_url)
        serve.record_build(layout, target, digest)

    seen = inputs()
    try:
        fresh = serve.is_up_to_date(layout, target, seen)
        if not fresh:
            build(seen)
    except BaseException:
        observer.stop()
        server.server_close()
        raise
    # Precompressed copies with Content-Encoding, the runtime kept as immutable: as a static host should.
    server.RequestHandlerClass = functools.partial(serve.SiteHandler, directory=str(target))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    note = " (up to date with its inputs, not rebuilt)" if fresh else ""
    print(
        f"Serving {target}{note} at http://127.0.0.1:{server.server_port}/ ; rebuilding when the config or a "
        "template changes.",
        flush=True,
    )
    try:
        while True:
            # A timeout, so that Ctrl-C is seen on every platform; a change sets the event at once.
            if not changed.wait(timeout=1.0):
                continue
            changed.clear()
            now = inputs()
            if now == seen:
                continue  # a file touched but not changed, or the build's own folder appearing beside site/
            seen = now
            try:
                build(now)
                print("Rebuilt.", flush=True)
            except REBUILD_ERRORS as exc:
                print(f"Not rebuilt; the site still shows the last good build.\n{exc}", file=sys.stderr)
    except KeyboardInterrupt:
        server.shutdown()
    finally:
        observer.stop()
    return 0


def _review(args: argparse.Namespace, layout: Layout) -> int:
    return review_cli.run(args, args.config or layout.config)


def _draw(args: argparse.Namespace, layout: Layout) -> int:
    from cvb_scorer.draw import DrawError, draw, draw_text, parse_pool

    rounds = load_config(args.config or layout.config).rounds
    strata = {tier: str(share) for tier, share in rounds.draw.strata.items()}
    try:
        text = args.pool.read_text(encoding="utf-8")
        pool = parse_pool(text, name=str(args.pool), tiers=sorted(strata))
        result = draw(pool, size=rounds.draw.size, strata=strata, seed=args.seed, window=args.window)
    except (DrawError, UnicodeDecodeError) as exc:
        print(f"cvb draw: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(result.to_json() + "\n" if args.json else draw_text(result))
    return 0


def _connection_test(args: argparse.Namespace, layout: Layout) -> int:
    from starter_kit.connection_test.bundle import settings_from_config
    from starter_kit.connection_test.cli import run

    settings = settings_from_config(load_config(args.config or layout.config))
    return run(args, settings=settings, default_clips=layout.root / "build" / "clips")


def _audio_stats(args: argparse.Namespace, layout: Layout) -> int:
    from cvb_scorer.audio import AudioError

    from generator.audio_stats import clip_stats, stats_json, stats_text

    config = load_config(args.config or layout.config)
    try:
        stats = clip_stats(config, args.clip, raw=args.raw)
    except AudioError as exc:
        print(f"cvb audio-stats: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(
        stats_json(args.clip, stats) + "\n" if args.json else stats_text(config, args.clip, stats)
    )
    return 0


def _run(args: argparse.Namespace, layout: Layout) -> int:
    from runner.cli import run

    return run(args, config=load_config(args.config or layout.config))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="cvb", description="Build the Cantonese Voice Benchmark site from its config."
    )
    parser.add_argument("--config", type=Path, default=None, help="config folder (default: platform_config/)")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build site/ (pages, editor, kit) atomically")
    build.add_argument("--out", type=Path, default=None, help="output folder (default: site/)")
    build.add_argument(
        "--site-url",
        default=None,
        help="the address the site will be served from (default: the config's urls.base)",
    )
    build.add_argument(
        "--results",
        type=Path,
        default=None,
        help="run records (default: $CVB_RESULTS, else none; results/example builds the example board)",
    )
    build.add_argument(
        "--without-bad-records",
        action="store_true",
        help="build even if run records are refused, listing them on the standings page",
    )
    check = sub.add_parser("check", help="fail if a published number did not come from the config")
    check.add_argument(
        "--site",
        default=None,
        help="a published site to compare, a folder or a URL (default: the build in site/)",
    )
    check.add_argument(
        "--results",
        type=Path,
        default=None,
        help="the run records the site was built with (the same option as build's)",
    )
    serve = sub.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on changes")
    serve.add_argument("--out", type=Path, default=None)
    serve.add_argument("--port", type=int, default=8000)
    rules = sub.add_parser("rules", help="write the scoring rules the scorer wheel carries")
    rules.add_argument("--out", type=Path, default=None)
    review_cli.add_parser(sub)
    draw = sub.add_parser("draw", help="print the clips a run's seed draws from a pool, with their tiers")
    draw.add_argument("--pool", type=Path, required=True, help="the round's pool: JSON lines of id and tier")
    draw.add_argument("--seed", required=True, help="the draw's seed as recorded")
    draw.add_argument("--window", default=None, help="the window the seed belongs to")
    draw.add_argument("--json", action="store_true", help="print JSON instead of text")
    connection_test = sub.add_parser(
        "connection-test",
        help="run the platform's connection test against an endpoint",
        description=DESCRIPTION,
    )
    add_arguments(connection_test, default_concurrency=None)
    audio_stats = sub.add_parser(
        "audio-stats", help="recording measures of a clip: level, noise floor, silence, clipping"
    )
    audio_stats.add_argument("clip", type=Path, metavar="CLIP", help="a WAV in the protocol's format")
    audio_stats.add_argument(
        "--raw", action="store_true", help="CLIP is raw PCM in the protocol's format, no header"
    )
    audio_stats.add_argument("--json", action="store_true", help="print one JSON object")
    issue_cli.add_parser(sub)
    add_run_arguments(
        sub.add_parser("run", help="run scored runs and write their records", description=RUN_DESCRIPTION)
    )
    args = parser.parse_args(argv)
    layout = Layout()
    handlers = {"build": _build, "check": _check, "serve": _serve, "rules": _rules, "review": _review}
    handlers["connection-test"] = _connection_test
    handlers["audio-stats"] = _audio_stats
    handlers["issue"] = issue_cli.run
    handlers["draw"] = _draw
    handlers["run"] = _run
    try:
        return handlers[args.command](args, layout)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    except BUILD_ERRORS as exc:
        print(f"cvb {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
