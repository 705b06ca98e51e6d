"""Automatic pre-review for the voice-endpointing task: find the mechanical part of the four review checks.

`detect` (pure: text and names in, findings out) and `causality` (pure: probabilities in, dependences out) hold
the rules; `scan` walks a submission tree and `probe` runs a submitted function in a separate process. Nothing
here ever imports or runs submission code in this process.
"""
