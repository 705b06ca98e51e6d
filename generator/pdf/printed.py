"""A printed PDF as the site offers it: its bytes and the folder the site serves it from.

A leaf: the Markdown stage lists the PDFs among the downloads and the printer (pdf/issue.py) makes them, so both
import this module and neither imports the other.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

# Where the site serves the PDFs, relative to its root.
PDF_FOLDER = "pdf"


@dataclass(frozen=True)
class PrintedPdf:
    """A PDF printed in memory, not yet written anywhere."""

    name: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()
