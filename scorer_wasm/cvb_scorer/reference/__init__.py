"""The plain reference scorer: the published rules written the obvious way, with no caches or shortcuts.

Every fast path in the package is checked against these functions on generated text. `normalise` holds the
normalisation pipeline (one named rule per row of the methodology's table) and `align` the textbook DP table.
"""
