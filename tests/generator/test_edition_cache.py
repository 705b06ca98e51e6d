"""The mkdocs stage's cache: a copy only for the very inputs it was built from, the same bytes as a build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.site_build.edition_cache import KEEP, cached_build, edition_key


def build_counting(calls: list[Path]) -> Callable[[Path], None]:
    def build(site: Path) -> None:
        calls.append(site)
        (site / "sub").mkdir(parents=True)
        (site / "index.html").write_text(f"build {len(calls)}", encoding="utf-8")
        (site / "sub" / "data.bin").write_bytes(bytes(range(256)))

    return build


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_same_key_is_copied_and_another_is_built(tmp_path: Path) -> None:
    cache, calls = tmp_path / "cache", list[Path]()
    build = build_counting(calls)
    assert not cached_build(cache, edition="en", key="k1", site=tmp_path / "a", build=build)
    assert cached_build(cache, edition="en", key="k1", site=tmp_path / "b", build=build)
    assert len(calls) == 1 and tree(tmp_path / "a") == tree(tmp_path / "b")
    assert not cached_build(cache, edition="en", key="k2", site=tmp_path / "c", build=build)
    assert len(calls) == 2


def test_only_the_newest_entries_of_an_edition_are_kept(tmp_path: Path) -> None:
    cache, calls = tmp_path / "cache", list[Path]()
    build = build_counting(calls)
    for k in range(KEEP + 2):
        cached_build(cache, edition="zh", key=f"k{k}", site=tmp_path / f"s{k}", build=build)
    cached_build(cache, edition="en", key="k0", site=tmp_path / "en", build=build)
    assert len(list(cache.glob("zh-*"))) == KEEP and len(list(cache.glob("en-*"))) == 1


def test_the_key_changes_with_any_input(tmp_path: Path) -> None:
    docs, theme = tmp_path / "docs", tmp_path / "theme"
    (docs / "assets").mkdir(parents=True)
    theme.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "assets" / "site.css").write_text("body {}\n", encoding="utf-8")
    (theme / "main.html").write_text("{% extends 'base.html' %}\n", encoding="utf-8")

    def key(**changes: dict[str, str]) -> str:
        settings = changes.get("settings", {"site_url": "http://a/"})
        plugin = changes.get("plugin", {"edition": "en"})
        return edition_key(docs=docs, theme=theme, settings=settings, plugin=plugin)

    before = key()
    assert key() == before
    assert key(settings={"site_url": "http://b/"}) != before
    assert key(plugin={"edition": "zh"}) != before
    (docs / "assets" / "site.css").write_text("body { margin: 0 }\n", encoding="utf-8")
    changed_asset = key()
    assert changed_asset != before
    (theme / "main.html").write_text("{% extends 'base.html' %}{# changed #}\n", encoding="utf-8")
    assert key() != changed_asset
