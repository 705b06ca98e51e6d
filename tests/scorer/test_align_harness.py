"""Every fast path of ``cvb_scorer.align`` against the plain reference (``cvb_scorer.reference.align``): the
same counts and the same edit scripts under the tie rule, on generated sequences.

Small alphabets make ties frequent (the tie rule is then what decides the script); a large Han alphabet gives
pairs with few ties; token lists stand for MER; empty and long sequences are drawn too. The paths: ``align``,
``count_edits``, ``edit_counts``, ``distance``, ``edit_counts_many`` and ``substitutions_many`` over mixed
lengths (packed groups and the pairs counted one by one), the keystroke column reuse over successive edits, and the checkpointed columns that
bound the memory of long pairs.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import cvb_scorer.align as fast
import pytest
from cvb_scorer.reference import align as reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_HAN = "".join(chr(0x4E00 + k) for k in range(3000))
# Astral characters, the last code point and a lone surrogate too: the numpy masks key characters by code point.
_ALPHABETS = ["ab", "abc", "唔該埋單", "ab唔該1", "abcdefgh", _HAN, "a𡃉\ud800\U0010ffff"]
_TOKENS = ["iphone", "15", "16", "好", "wi-fi", "3.5", "唔該", "埋單"]


@st.composite
def pairs(draw: st.DrawFn, *, max_size: int = 60) -> tuple[Sequence[str], Sequence[str]]:
    """A reference and a hypothesis: either independent, or the hypothesis made from the reference by a few
    substitutions, deletions and insertions (what a recogniser returns). Strings, or token tuples."""
    tokens = draw(st.booleans()) and draw(st.integers(0, 4)) == 0
    alphabet: Sequence[str] = _TOKENS if tokens else draw(st.sampled_from(_ALPHABETS))
    symbol = st.sampled_from(alphabet)
    ref = draw(st.lists(symbol, max_size=max_size))
    if draw(st.booleans()):
        hyp = draw(st.lists(symbol, max_size=max_size))
    else:
        hyp = list(ref)
        for pos, kind, sym in draw(
            st.lists(st.tuples(st.integers(0, max_size), st.sampled_from("sdi"), symbol), max_size=12)
        ):
            k = min(pos, len(hyp))
            if kind == "i":
                hyp.insert(k, sym)
            elif hyp and kind == "s":
                hyp[min(k, len(hyp) - 1)] = sym
            elif hyp:
                del hyp[min(k, len(hyp) - 1)]
    if tokens:
        return tuple(ref), tuple(hyp)
    return "".join(ref), "".join(hyp)


@contextmanager
def limits(
    *,
    store_max_cells: int | None = None,
    pack_max_length: int | None = None,
    group_bits: int | None = None,
    numpy_masks: bool | None = None,
) -> Iterator[None]:
    """Lower the size limits so that small pairs take the routes meant for large ones; ``numpy_masks`` makes
    packed groups build their match masks with numpy (True) or in Python (False)."""
    saved = fast._STORE_MAX_CELLS, fast._PACK_MAX_LENGTH, fast._GROUP_BITS
    loaded, min_mean = fast._numpy_loaded, fast._NUMPY_MIN_MEAN_LENGTH
    if numpy_masks is not None:
        import numpy  # noqa: F401  (the route is for a process that has loaded numpy)

        fast._numpy_loaded = lambda: numpy_masks  # type: ignore[method-assign]
        fast._NUMPY_MIN_MEAN_LENGTH = 0  # groups of short pairs too
    fast._STORE_MAX_CELLS = saved[0] if store_max_cells is None else store_max_cells
    fast._PACK_MAX_LENGTH = saved[1] if pack_max_length is None else pack_max_length
    fast._GROUP_BITS = saved[2] if group_bits is None else group_bits
    fast.clear_cache()
    try:
        yield
    finally:
        fast._STORE_MAX_CELLS, fast._PACK_MAX_LENGTH, fast._GROUP_BITS = saved
        fast._numpy_loaded, fast._NUMPY_MIN_MEAN_LENGTH = loaded, min_mean  # type: ignore[method-assign]
        fast.clear_cache()


def assert_same_as_reference(ref: Sequence[str], hyp: Sequence[str]) -> None:
    expected = reference.align(ref, hyp)
    assert fast.align(ref, hyp) == expected
    assert fast.count_edits(ref, hyp).counts == fast.edit_counts(ref, hyp) == expected.counts
    assert fast.distance(ref, hyp) == reference.distance(ref, hyp) == expected.distance
    # A single pair takes the stored (reused) columns rather than a packed group.
    assert fast.edit_counts_many([(ref, hyp)]) == [expected.counts]
    assert fast.substitutions_many([(ref, hyp)]) == ([expected.counts], [reference_substitutions(ref, hyp)])


@settings(max_examples=600, deadline=None)
@given(pairs())
def test_one_pair_equals_the_reference(pair: tuple[Sequence[str], Sequence[str]]) -> None:
    fast.clear_cache()
    assert_same_as_reference(*pair)


@settings(max_examples=300, deadline=None)
@given(pairs(), st.sampled_from([0, 1, 7, 50]))
def test_checkpointed_columns_give_the_reference_script(
    pair: tuple[Sequence[str], Sequence[str]], store_max_cells: int
) -> None:
    # Past the limit only checkpoints are kept and the walk recomputes blocks cut to the rows it can still
    # visit: the script must still be the reference's, cell for cell.
    with limits(store_max_cells=store_max_cells):
        assert_same_as_reference(*pair)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs(max_size=400))
def test_long_pairs_equal_the_reference_both_ways(pair: tuple[Sequence[str], Sequence[str]]) -> None:
    with limits(store_max_cells=1000):
        assert_same_as_reference(*pair)
    fast.clear_cache()
    assert_same_as_reference(*pair)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(pairs(max_size=40), max_size=150),
    st.sampled_from([None, 0, 10]),
    st.sampled_from([None, 1, 64]),
    st.booleans(),
)
def test_counts_of_many_pairs_equal_the_reference(
    many: list[tuple[Sequence[str], Sequence[str]]],
    pack_max_length: int | None,
    group_bits: int | None,
    numpy_masks: bool,
) -> None:
    # Packed groups of mixed lengths (with empty pairs among them, and pairs equal but for their middles)
    # and, past the row limit, pairs counted one by one: every pair must come out as its own reference walk,
    # whatever its neighbours, however many share its group and however its match masks were made.
    with limits(pack_max_length=pack_max_length, group_bits=group_bits, numpy_masks=numpy_masks):
        assert fast.edit_counts_many(many) == [reference.edit_counts(a, b) for a, b in many]
        counts, substitutions = fast.substitutions_many(many)
        assert counts == [reference.edit_counts(a, b) for a, b in many]
        assert substitutions == [reference_substitutions(a, b) for a, b in many]


def reference_substitutions(a: Sequence[str], b: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """The (reference, hypothesis) positions of the substitutions of the reference's script, in order."""
    return tuple((i, j) for op, i, j in reference.align(a, b).ops if op is fast.Op.SUBSTITUTE)


@pytest.mark.parametrize("numpy_masks", [False, True], ids=["python-masks", "numpy-masks"])
def test_counts_of_a_corpus_in_several_groups_equal_the_reference(numpy_masks: bool) -> None:
    many: list[tuple[Sequence[str], Sequence[str]]] = [
        (a[: k % 37], b[: k % 41]) for k, (a, b) in enumerate(_generated(1500, seed=3))
    ]
    if not numpy_masks:  # numpy makes the masks of strings only: a group with token tuples takes Python's
        many += [(tuple(a), tuple(b)) for a, b in many[:100]]  # MER tokens
    assert sum(len(a) for a, _ in many) > 2 * fast._GROUP_BITS
    with limits(numpy_masks=numpy_masks):
        assert fast.edit_counts_many(many) == [reference.edit_counts(a, b) for a, b in many]
        assert fast.substitutions_many(many)[1] == [reference_substitutions(a, b) for a, b in many]


@settings(max_examples=300, deadline=None)
@given(st.lists(pairs(max_size=50), min_size=1, max_size=12), st.booleans())
def test_numpy_match_masks_are_the_plain_ones(
    group: list[tuple[Sequence[str], Sequence[str]]], sorted_keys: bool
) -> None:
    # Bit for bit, column by column, including the columns past a short hypothesis and characters beyond the
    # BMP; a pair's bytes start where the one before it ends. Keys numbered from the table of code points, or
    # sorted (what a group whose table would make large masks takes).
    from cvb_scorer import align_numpy

    members = [("".join(a) or "a", "".join(b) or "b") for a, b in group]
    sizes = [len(a) // 8 + 1 for a, _ in members]
    cols = max(len(b) for _, b in members)
    cap = align_numpy._DENSE_MAX_MASK_BYTES
    align_numpy._DENSE_MAX_MASK_BYTES = -1 if sorted_keys else cap
    try:
        masks = align_numpy.match_masks(members, sizes, cols)
    finally:
        align_numpy._DENSE_MAX_MASK_BYTES = cap
    assert masks == list(fast._match_masks(members, sizes, cols))


def _generated(count: int, *, seed: int) -> list[tuple[str, str]]:
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(count):
        alphabet = rng.choice(_ALPHABETS)
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        b = "".join(c if rng.random() > 0.2 else rng.choice(alphabet) for c in a)
        out.append((a, b[: rng.randint(0, len(b))] if rng.random() < 0.2 else b))
    return out


@settings(max_examples=120, deadline=None)
@given(
    pairs(max_size=120),
    st.lists(
        st.tuples(
            st.integers(0, 130), st.sampled_from(["sub", "del", "ins", "end"]), st.sampled_from("ab唔x")
        ),
        min_size=1,
        max_size=15,
    ),
)
def test_keystroke_reuse_equals_the_reference_after_every_edit(
    pair: tuple[Sequence[str], Sequence[str]], edits: list[tuple[int, str, str]]
) -> None:
    # The editor realigns after every keystroke, characters and MER tokens alternately; columns of the prefix
    # shared with the previous hypothesis are reused, and each walk follows the last one's trail where it
    # meets it, whether that walk made a script or only counted. Each result must be the reference's.
    ref, start = pair
    ref_text, hyp = "".join(ref), list("".join(start))
    fast.clear_cache()
    for pos, kind, sym in edits:
        k = min(pos, len(hyp))
        if kind == "ins":
            hyp.insert(k, sym)
        elif kind == "end":
            hyp.append(sym)
        elif hyp and kind == "sub":
            hyp[min(k, len(hyp) - 1)] = sym
        elif hyp:
            del hyp[min(k, len(hyp) - 1)]
        text = "".join(hyp)
        expected = reference.align(ref_text, text)
        assert fast.substitutions_many([(ref_text, text)])[1] == [reference_substitutions(ref_text, text)]
        assert fast.align(ref_text, text) == expected
        assert fast.edit_counts(ref_text, text) == expected.counts
        assert fast.align(ref_text, text) == expected
        tokens = tuple(text.split("x"))
        assert fast.edit_counts(tuple(ref_text.split("x")), tokens) == reference.edit_counts(
            tuple(ref_text.split("x")), tokens
        )


def test_tie_rule_is_the_reference_order_spelled_out() -> None:
    assert fast.TIE_RULE == reference.TIE_RULE == "diag>del>ins"
    assert [move.value for move in reference.TIE_ORDER] == reference.TIE_RULE.split(">")


def test_the_tie_order_decides_the_script() -> None:
    # The order is data: another order gives another (equally short) script, so the harness above can fail.
    move = reference.Move
    published = reference.align("ab", "ba")
    other = reference.align("ab", "ba", order=(move.DELETE, move.INSERT, move.DIAGONAL))
    assert [op for op, _, _ in published.ops] == [fast.Op.SUBSTITUTE, fast.Op.SUBSTITUTE]
    assert [op for op, _, _ in other.ops] == [fast.Op.INSERT, fast.Op.MATCH, fast.Op.DELETE]
    assert published.distance == other.distance == 2


def test_an_order_missing_a_move_is_refused() -> None:
    with pytest.raises(ValueError, match="name all three moves"):
        reference.align("a", "", order=(reference.Move.DIAGONAL, reference.Move.INSERT))


_MEMORY_PROBE = """
import random, sys
from cvb_scorer.align import align
rng = random.Random(1)
ref = "".join(rng.choice("唔該埋單好嘅咗") for _ in range({size}))
hyp = "".join(c if rng.random() > 0.1 else rng.choice("唔該x") for c in ref)
al = align(ref, hyp)
assert len(al.ops) >= len(ref)
# VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss across exec, so a child of a large pytest worker
# would report the worker's peak. VmHWM belongs to this program's memory alone.
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")))
"""


def test_a_long_pair_is_aligned_in_bounded_memory() -> None:
    # 50,000 characters: keeping every column took 2 bits a cell (about 0.6 GB here); checkpoints keep a few
    # hundred columns. Run apart so that the peak belongs to this alignment alone (bench/align_memory.py
    # measures 200,000 characters).
    size = 50_000
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE.format(size=size)],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    peak_mb = int(out.stdout.strip()) / 1024  # VmHWM is in KiB
    assert peak_mb < 300, f"aligning {size:,} characters peaked at {peak_mb:.0f} MB"
