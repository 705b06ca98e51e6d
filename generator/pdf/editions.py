"""What is printed, per edition: the documents of an issue and the few words the print template needs.

A new edition (the Chinese one) is one more `Edition` in `EDITIONS`: its pages come from the same render,
its words from here, its type from the same print stylesheet (chosen by `lang`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Document:
    """One PDF of an issue: `slug` names the file, `pages` are rendered Markdown outputs in print order."""

    slug: str
    title: str
    pages: tuple[str, ...]


@dataclass(frozen=True)
class Edition:
    code: str
    lang: str
    # Rendered-page names of this edition are `prefix + name` (the English edition sits at the site root).
    prefix: str
    contents: str
    page_word: str
    of_word: str
    issued_word: str
    protocol_word: str
    scoring_word: str
    web_note: str
    # Where a document meets a listing it printed before: a link to it (the page number follows it).
    listing_above: str
    documents: tuple[Document, ...]

    def filename(self, document: Document, issued: str) -> str:
        suffix = "" if self.code == "en" else f"-{self.code}"
        return f"cvb-{document.slug}{suffix}-{issued}.pdf"


_GUIDE = "index.md"
_INTEGRATION = "integration.md"
_METHODOLOGY = "methodology.md"
_GRADING = "grading-pipeline.md"

ENGLISH = Edition(
    code="en",
    lang="en",
    prefix="",
    contents="Contents",
    page_word="Page",
    of_word="of",
    issued_word="Issued",
    protocol_word="protocol",
    scoring_word="scoring version",
    web_note="The web edition of this page, with the interactive editor, is at",
    listing_above="The same listing is printed earlier in this book, on page",
    documents=(
        Document("entrant-guide", "Entrant's guide", (_GUIDE,)),
        Document("integration", "Integration", (_INTEGRATION,)),
        Document("methodology", "Methodology", (_METHODOLOGY,)),
        Document("book", "The entrant's book", (_GUIDE, _INTEGRATION, _METHODOLOGY)),
        Document("grading-pipeline", "Grading pipeline", (_GRADING,)),
    ),
)

# The Chinese edition prints the same documents from the Chinese pages (zh/ in the render); its page footer
# reads "第 3 頁，共 12 頁" as "頁 3 / 12" would not.
CHINESE = Edition(
    code="zh",
    lang="zh-HK",
    prefix="zh/",
    contents="目錄",
    page_word="第",
    of_word="頁，共",
    issued_word="發佈日期",
    protocol_word="協定",
    scoring_word="評分版本",
    web_note="本頁的網上版連同互動編輯器，見",
    listing_above="同一段程式碼已印在本書較前的位置，頁碼：",
    documents=(
        Document("entrant-guide", "參賽指南", (_GUIDE,)),
        Document("integration", "端點接駁", (_INTEGRATION,)),
        Document("methodology", "評分方法", (_METHODOLOGY,)),
        Document("book", "參賽者手冊", (_GUIDE, _INTEGRATION, _METHODOLOGY)),
        Document("grading-pipeline", "評審流程", (_GRADING,)),
    ),
)

EDITIONS: tuple[Edition, ...] = (ENGLISH, CHINESE)
