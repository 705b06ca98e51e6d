"""Scored runs: draw a window's clips, run them against an entrant's endpoint with the connection test's
protocol machine, attribute every failure with its evidence and write the run records the board reads.

Pure cores (policy, attribution, evidence, scoring, records, queue) and one thin asyncio shell (shell.py).
"""
