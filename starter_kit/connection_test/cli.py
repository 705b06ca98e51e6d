"""Command line of the connection test, shared by `cvb connection-test` and the kit's connection_test.py."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from starter_kit.connection_test.clips import ClipError, load_clips
from starter_kit.protocol.machine import PILLARS, Item
from starter_kit.protocol.settings import Settings

DESCRIPTION = (
    "Run the platform's connection test against your endpoint: the same frames, pacing and timeouts as a "
    "scored run, a verdict per clip and turn, exit code 0 only when everything passes."
)


def add_arguments(parser: argparse.ArgumentParser, *, default_concurrency: int | None = None) -> None:
    """The options; a default concurrency of None means the declared one (endpoint.json) or else the config's,
    filled in by run()."""
    parser.add_argument("url", help="your endpoint, wss://host[:port]/path")
    parser.add_argument("--pillar", choices=[*PILLARS, "all"], default="all", help="which pillar to test")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=default_concurrency,
        help="the number of connections you declared; the test never opens more "
        "(default: endpoint.json's concurrency)",
    )
    parser.add_argument(
        "--declared",
        type=Path,
        default=None,
        help="a JSON file whose concurrency is the one you declare (default: endpoint.json beside the test)",
    )
    parser.add_argument(
        "--clips", type=Path, default=None, help="a folder of WAV clips (default: the built-in clips)"
    )
    parser.add_argument("--fast", action="store_true", help="send audio at once instead of in real time")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--insecure", action="store_true", help="allow ws:// or an unverified certificate, loopback only"
    )


class DeclaredError(ValueError):
    """An endpoint.json the test cannot use, as one sentence naming the file."""


def declared_concurrency(
    args: argparse.Namespace, *, settings: Settings, default_declared: Path | None
) -> tuple[int, str]:
    """The concurrency to test and where it came from: --concurrency, else the declared file's, else the
    platform's default (only when no file was named and none is beside the test)."""
    if args.concurrency is not None:
        return args.concurrency, "--concurrency"
    path = args.declared or default_declared
    if path is None or (args.declared is None and not path.is_file()):
        return settings.default_concurrency, "the platform's default"
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("concurrency")
    except (OSError, ValueError, AttributeError) as exc:
        raise DeclaredError(f"{path} could not be read as JSON with a concurrency ({exc}).") from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DeclaredError(
            f"{path}: concurrency must be a whole number of connections, at least one, not {value!r}."
        )
    return value, path.name


def run(
    args: argparse.Namespace, *, settings: Settings, default_clips: Path, default_declared: Path | None = None
) -> int:
    """0 when every clip and turn passed, 1 when one failed, 2 when the test could not run."""
    # Imported here so `cvb` commands that never open a socket do not need websockets.
    try:
        from starter_kit.connection_test.client import UsageError, run_items
        from starter_kit.connection_test.report import render_text, to_json
    except ModuleNotFoundError as exc:
        print(
            f"connection test: it needs the {exc.name} package; python -m pip install {exc.name}",
            file=sys.stderr,
        )
        return 2

    try:
        concurrency, declared_from = declared_concurrency(
            args, settings=settings, default_declared=default_declared
        )
        if args.clips is None:
            if not default_clips.is_dir():
                raise ClipError(
                    f"The built-in clips are not in {default_clips}; build them first, or pass --clips with a "
                    "folder of your own WAV files."
                )
            clips = load_clips(default_clips, settings=settings, shortest=settings.connection_test_clips)
        else:
            clips = load_clips(args.clips, settings=settings)
        pillars = PILLARS if args.pillar == "all" else (args.pillar,)
        if "tts" in pillars:
            untexted = [c.id for c in clips if not c.text.strip()]
            if untexted:
                raise ClipError(
                    f"Speech needs each clip's text, and {', '.join(untexted)} has none: put clips.json, or a "
                    "same-named .txt beside each WAV, in the clips folder."
                )
        items = [Item(pillar, clip) for pillar in pillars for clip in clips]
        result = asyncio.run(
            run_items(
                items,
                args.url,
                settings=settings,
                concurrency=concurrency,
                paced=not args.fast,
                insecure=args.insecure,
                declared_from=declared_from,
            )
        )
    except (ClipError, UsageError, DeclaredError) as exc:
        print(f"connection test: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(result, settings=settings), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_text(result, settings=settings))
    return 0 if result.passed else 1


def main(
    argv: Sequence[str] | None,
    *,
    settings: Settings,
    default_clips: Path,
    default_declared: Path | None = None,
) -> int:
    parser = argparse.ArgumentParser(prog="connection_test.py", description=DESCRIPTION)
    add_arguments(parser)
    return run(
        parser.parse_args(argv),
        settings=settings,
        default_clips=default_clips,
        default_declared=default_declared,
    )
