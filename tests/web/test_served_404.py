"""The built site's own 404 pages, as `cvb serve`'s handler answers a missing address in each edition."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from editor_site import Site


@pytest.mark.parametrize(
    ("path", "lang", "heading"),
    [
        ("no-such-page/", "en", "<h1>404 - Not found</h1>"),
        ("zh/no-such-page/", "zh-HK", "<h1>找不到這一頁</h1>"),
    ],
)
def test_a_missing_address_gets_its_editions_404_page(site: Site, path: str, lang: str, heading: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(site.url(path), timeout=30)
    assert caught.value.code == 404
    page = caught.value.read().decode("utf-8")
    assert f'<html lang="{lang}"' in page and heading in page
