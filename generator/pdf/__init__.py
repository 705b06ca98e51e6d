"""Dated PDF issues: the guide, the integration page and the methodology printed with WeasyPrint from print
templates of our own (docs/print/), fed the very Markdown the site is built from."""
