"""The examples in the scorer's public API (numpydoc ``Examples`` sections) run and print what they show.

The API a caller starts from: ``normalise_reference``/``normalise_hypothesis`` and ``Normalised``, ``align``,
``score_corpus``, ``score_jsonl`` and ``Report``, ``Signature`` and ``signature``. Each must carry an example;
they run on the installed wheel, as every scorer test does.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

# (module, name): each of these documents itself with at least one example.
PUBLIC_API = [
    ("cvb_scorer.normalise", "normalise_reference"),
    ("cvb_scorer.normalise", "normalise_hypothesis"),
    ("cvb_scorer.align", "align"),
    ("cvb_scorer.metrics", "score_corpus"),
    ("cvb_scorer.report", "score_jsonl"),
    ("cvb_scorer.signature", "Signature"),
    ("cvb_scorer.signature", "signature"),
]
MODULES = sorted({module for module, _ in PUBLIC_API} | {"cvb_scorer.report"})


def examples(module_name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(module_name)
    return [test for test in doctest.DocTestFinder().find(module) if test.examples]


@pytest.mark.parametrize(("module", "name"), PUBLIC_API)
def test_each_public_function_and_type_has_an_example(module: str, name: str) -> None:
    assert f"{module}.{name}" in {test.name for test in examples(module)}


@pytest.mark.parametrize(
    "test", [test for module in MODULES for test in examples(module)], ids=lambda test: test.name
)
def test_the_example_prints_what_it_shows(test: doctest.DocTest) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
