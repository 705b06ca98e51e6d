"""The standings board from run records: known answers for bands, labels and wording in both editions; refusals
with file and reason; and figures equal to those recomputed independently from the per-clip records."""

from __future__ import annotations

import functools
import json
import math
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from cvb_scorer import stats
from cvb_scorer.draw import PoolClip, draw
from cvb_scorer.rules import ScoringRules, rules_from_json
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BadRecordsError, Rendered, render_all
from generator.config import Config, load_config
from generator.config.localise import zh_config
from generator.pages.board import (
    BandKind,
    BoardModel,
    GapKind,
    Label,
    board_model,
    fictional_mark,
    in_edition,
)
from generator.pages.derive import tracked
from generator.pages.editions import EDITIONS, glossary_terms
from generator.paths import Layout
from generator.provenance import Text
from generator.render import environment
from generator.results.records import (
    DrawSpec,
    Entrant,
    Loaded,
    Record,
    Refusal,
    ResultsFolderError,
    chosen_folder,
    draw_spec,
    load_folder,
    parse_record,
)
from generator.rules_export import scoring_rules_json
from tests.generator.conftest import REPO, project_copy

STRATA = {"easy": "0.2", "normal": "0.4", "hard": "0.4"}
ROUNDS = ("qualification", "online_challenge")
SPEC = DrawSpec(30, STRATA, rounds=ROUNDS, separate_pools=True)
# Each round's pool: the same tiers, clip ids that never meet (the rounds draw from separate pools).
POOLS = {
    r: [
        PoolClip(f"{r[0]}-{t}-{k:02d}", t)
        for t, n in (("easy", 8), ("normal", 14), ("hard", 14))
        for k in range(n)
    ]
    for r in ROUNDS
}
POOL = POOLS["online_challenge"]


def _config(tmp_path: Path | None = None, *, older_version: bool = False) -> tuple[Config, ScoringRules]:
    folder = REPO / "platform_config"
    if older_version:
        assert tmp_path is not None
        folder = tmp_path / "platform_config"
        shutil.copytree(REPO / "platform_config", folder)
        scoring = folder / "scoring.yaml"
        text = scoring.read_text(encoding="utf-8")
        # Name the version that used the 60% floor, as the organisers would once they announce it.
        text = text.replace(
            "  - floor: 0.60\n    scoring_version: to be announced",
            '  - floor: 0.60\n    scoring_version: "2025-2"',
        )
        scoring.write_text(text, encoding="utf-8")
    config = load_config(folder)
    return config, rules_from_json(scoring_rules_json(config))


def _clips(pillar: str, ids: Sequence[str], values: Sequence[Any]) -> list[dict[str, Any]]:
    out = []
    for k, cid in enumerate(ids):
        v = values[k % len(values)]
        if pillar == "asr":
            errors, n = v
            out.append(
                {
                    "id": cid,
                    "S": errors,
                    "D": 0,
                    "I": 0,
                    "N": n,
                    "mer_counts": {"S": errors, "D": 0, "I": 0, "N": n},
                }
            )
        elif pillar == "llm":
            out.append({"id": cid, "score": v})
        elif pillar == "tts":
            out.append({"id": cid, "delivery": v, "tone_survival": v, "tones_recovered": 6})
        else:
            out.append(
                {
                    "id": cid,
                    "latencies_ms": [v],
                    "yield_ms": [100.0],
                    "turns_completed": 4,
                    "turns_attempted": 4,
                }
            )
    return out


def _record(entrant: str, pillar: str, values: Sequence[Any], *, run: int = 1, final: bool = True,
            version: str = "2026-1", anchor: float | None = None, round_id: str = "online_challenge",
            drawn_from: str | None = None) -> dict[str, Any]:  # fmt: skip
    seed = f"{entrant}-{pillar}-{run}"
    ids = list(draw(POOLS[drawn_from or round_id], size=30, strata=STRATA, seed=seed, window="w").ids)
    data: dict[str, Any] = {
        "entrant": entrant,
        "round": round_id,
        "pillar": pillar,
        "run": run,
        "scoring_version": version,
        "final": final,
        "draw": {"seed": seed, "window": "w", "clips": ids},
        "clips": _clips(pillar, ids, values),
    }
    if anchor is not None:
        data["cross_anchor"] = {"benchmark": "WSYue-ASR-eval", "cer": anchor}
    return data


def _model(
    records: Sequence[dict[str, Any]], entrants: Sequence[Entrant], config: Config, rules: ScoringRules
) -> BoardModel:
    loaded = Loaded(
        "entrants.yaml",
        {e.id: e for e in entrants},
        tuple(
            Record(f"runs/{r['entrant']}-{r['pillar']}-{r['run']}.json", parse_record(json.dumps(r)))
            for r in records
        ),
        (),
    )
    return board_model(config, loaded, rules=rules)


def _e(eid: str, name: str | None = None, publish: bool = False) -> Entrant:
    return Entrant(id=eid, codename=f"Code {eid.upper()}", name=name, publish_name=publish)


def _board(model: BoardModel, board_id: str, group: int = 0) -> Any:
    return next(b for b in model.groups[group].boards if b.id == board_id)


def say(model: BoardModel, config: Config, edition: str) -> Any:
    """The edition's wording macros (docs/templates/[zh/]_board.md.j2) bound to the board, as the pages use them."""
    by_code = {e.code: e for e in EDITIONS}
    env = environment(Layout().template_dirs(), mark=False)
    shown = zh_config(config) if edition == "zh" else config
    context = {"cfg": tracked(shown), "t": glossary_terms(config, edition), "board": model}
    return env.get_template(by_code[edition].templates + "_board.md.j2").make_module(vars=context)


def test_a_chain_a_b_c_is_one_band_and_each_edition_names_its_ends() -> None:
    config, rules = _config()
    # Means 80, 74 and 64 with a spread of 20: A overlaps B, B overlaps C, C does not reach A.
    records = [
        _record("a", "llm", [60.0, 100.0]),
        _record("b", "llm", [54.0, 94.0]),
        _record("c", "llm", [44.0, 84.0]),
    ]
    model = _model(records, [_e("a"), _e("b"), _e("c")], config, rules)
    board = _board(model, "llm")
    by_name = {str(r.name): r for r in board.rows}
    assert [(str(r.name), r.rank.value, r.band.value, r.leader) for r in board.rows] == [
        ("Code A", 1, 1, True),
        ("Code B", 1, 1, False),
        ("Code C", 1, 1, False),
    ]
    a, b, c = (by_name[f"Code {x}"].figure for x in "ABC")
    assert b.high.value >= a.low.value and c.high.value >= b.low.value and c.high.value < a.low.value
    (band,) = board.bands
    assert band.kind is BandKind.CHAIN
    assert [str(x) for x in band.chain] == ["Code A", "Code B", "Code C"]
    assert (band.links.value, band.apart.value, band.pairs.value) == (2, 1, 3)
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert str(en.band_sentence(band)) == (
        "Band 1: Code A, Code B and Code C are tied at rank 1 through a chain of 2 overlaps, Code A – Code B – "
        "Code C. Code A and Code C do not overlap each other (pairs apart in this band: 1 of 3): they share "
        "the band only through the entries between them, as the rule says."
    )
    assert str(zh.band_sentence(band)) == (
        "名次組 1：Code A、Code B 及 Code C 經 2 個重疊連成一條鏈，並列第 1 名：Code A – Code B – Code C。"
        "Code A 及 Code C 的區間並不重疊（組內 3 對之中有 1 對不重疊）；按規則，它們經中間的參賽者相連而同組。"
    )
    from generator.pages.board import chart_svg

    for edition, title in (("en", "Reasoning: intervals by entrant"), ("zh", "理解回應：各參賽者的置信區間")):
        svg = str(chart_svg(board.chart, say(model, config, edition).chart_title("llm")))
        assert f'aria-label="{title}"' in svg and f"<title>{title}</title>" in svg
        # The wide drawing and the narrow one, each with the one band's diamond.
        assert 'class="cvb-leader"' in svg and svg.count("<path") == 2 and svg.count("<svg") == 2


def test_a_long_chain_is_named_end_to_end_in_each_edition() -> None:
    """However long a chain, the band keeps it (the rule as promised) and the sentence says so plainly: its
    length, its ends and how many of the band's pairs are apart."""
    from generator.pages.board import BandFact
    from generator.provenance import Num, Text

    config, rules = _config()
    model = _model([_record("a", "llm", [70.0])], [_e("a")], config, rules)
    names = tuple(Text(f"Code {x}", frozenset({"entrants.yaml"})) for x in "ABCDE")
    src = frozenset({"runs/x.json"})
    fact = BandFact(
        band=Num(1, src),
        rank=Num(1, src),
        kind=BandKind.CHAIN,
        leader=names[0],
        members=names[1:],
        everyone=names,
        chain=names,
        ends=(names[0], names[-1]),
        links=Num(4, src),
        apart=Num(6, src),
        pairs=Num(10, src),
    )
    assert str(say(model, config, "en").band_sentence(fact)) == (
        "Band 1: Code A, Code B, Code C, Code D and Code E are tied at rank 1 through a chain of 4 overlaps, "
        "Code A – Code B – Code C – Code D – Code E. Code A and Code E do not overlap each other (pairs apart in "
        "this band: 6 of 10): they share the band only through the entries between them, as the rule says."
    )
    assert str(say(model, config, "zh").band_sentence(fact)) == (
        "名次組 1：Code A、Code B、Code C、Code D 及 Code E 經 4 個重疊連成一條鏈，並列第 1 名：Code A – Code B – "
        "Code C – Code D – Code E。Code A 及 Code E 的區間並不重疊（組內 10 對之中有 6 對不重疊）；按規則，它們經"
        "中間的參賽者相連而同組。"
    )


def test_entries_apart_get_bands_of_their_own_and_the_rank_counts_the_entries_above() -> None:
    config, rules = _config()
    # Means 80, 78 (overlapping) and 40, 38 (overlapping), the two pairs far apart.
    records = [
        _record("a", "llm", [70.0, 90.0]),
        _record("b", "llm", [68.0, 88.0]),
        _record("c", "llm", [30.0, 50.0]),
        _record("d", "llm", [37.0, 39.0]),
    ]
    model = _model(records, [_e("a"), _e("b"), _e("c"), _e("d")], config, rules)
    board = _board(model, "llm")
    assert [(str(r.name), r.rank.value, r.band.value) for r in board.rows] == [
        ("Code A", 1, 1),
        ("Code B", 1, 1),
        ("Code C", 3, 2),
        ("Code D", 3, 2),
    ]
    assert [f.kind for f in board.bands] == [BandKind.TIED, BandKind.TIED]
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert str(en.band_sentence(board.bands[1])) == (
        "Band 2: Code C and Code D are tied at rank 3; their intervals all overlap one another."
    )
    assert (
        str(zh.band_sentence(board.bands[1]))
        == "名次組 2：Code C 及 Code D 並列第 3 名，彼此的區間都互相重疊。"
    )
    alone = _model(records[:1] + records[2:3], [_e("a"), _e("c")], config, rules)
    fact = _board(alone, "llm").bands[1]
    assert fact.kind is BandKind.ALONE
    assert str(say(alone, config, "en").band_sentence(fact)) == (
        "Band 2: Code C alone at rank 2; its interval overlaps no other entry's."
    )
    assert str(say(alone, config, "zh").band_sentence(fact)) == (
        "名次組 2：Code C 獨佔第 2 名，其區間與其他參賽者的都不重疊。"
    )


def test_several_entries_all_overlapping_are_listed_in_each_edition() -> None:
    config, rules = _config()
    records = [
        _record("a", "llm", [60.0, 100.0]),
        _record("b", "llm", [58.0, 98.0]),
        _record("c", "llm", [57.0, 97.0]),
    ]
    model = _model(records, [_e("a"), _e("b"), _e("c")], config, rules)
    (band,) = _board(model, "llm").bands
    assert band.kind is BandKind.TIED and [str(m) for m in band.members] == ["Code B", "Code C"]
    assert str(say(model, config, "en").band_sentence(band)) == (
        "Band 1: Code A, Code B and Code C are tied at rank 1; their intervals all overlap one another."
    )
    assert str(say(model, config, "zh").band_sentence(band)) == (
        "名次組 1：Code A、Code B 及 Code C 並列第 1 名，彼此的區間都互相重疊。"
    )


def test_a_pillar_not_final_withholds_the_full_score_and_e2e_is_measured_not_rated() -> None:
    config, rules = _config()
    records = [
        _record("a", "asr", [(2, 40)], anchor=0.05),
        _record("a", "llm", [70.0, 80.0]),
        _record("a", "tts", [80.0, 90.0]),
        _record("a", "e2e", [400.0, 600.0], final=False),
    ]
    model = _model(records, [_e("a")], config, rules)
    row = model.groups[0].composites[0]
    assert row.core is not None and row.full is None
    assert row.core_gap is None and row.full_gap is not None
    assert (row.full_gap.kind, row.full_gap.pillars) == (GapKind.PENDING, ("e2e",))
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert str(en.gap(row.full_gap, "full")) == (
        "Full Score is withheld until every entered pillar is final; pending: Conversation."
    )
    assert str(zh.gap(row.full_gap, "full")) == (
        "完整分數要待所有已參加的評測範疇都有最終結果才公佈；尚未有最終結果：對話。"
    )
    e2e = _board(model, "e2e").rows[0]
    assert e2e.labels == (Label.MEASURED_NOT_RATED, Label.PROVISIONAL)
    assert str(en.labels(e2e.labels)) == "**measured, not rated**; **provisional**"
    assert str(zh.labels(e2e.labels)) == "**機器量度，未經評分**；**暫定結果**"
    assert _board(model, "tts").rows[0].labels == (Label.MEASURED_NOT_RATED,)
    assert _board(model, "asr").rows[0].labels == ()
    anchor = _board(model, "asr").rows[0].cross_anchor
    assert str(en.cross_anchor(anchor)) == "5% on WSYue-ASR-eval"
    assert str(zh.cross_anchor(anchor)) == "5%"


def test_only_the_standing_rounds_runs_are_ranked() -> None:
    # A qualification run (its own pool, a far better figure) sits beside the online challenge's: the board's
    # figures are the online challenge's alone, as if the qualification run were not there.
    config, rules = _config()
    online = _record("a", "llm", [60.0, 62.0, 64.0])
    both = _model(
        [online, _record("a", "llm", [99.0, 98.0, 97.0], round_id="qualification")], [_e("a")], config, rules
    )
    alone = _model([online], [_e("a")], config, rules)
    assert _board(both, "llm").rows == _board(alone, "llm").rows
    assert _board(both, "llm").rows[0].figure.value.value < 70


def test_a_missing_core_pillar_withholds_both_scores_and_names_the_pillars() -> None:
    config, rules = _config()
    model = _model([_record("a", "llm", [70.0])], [_e("a")], config, rules)
    row = model.groups[0].composites[0]
    assert row.core is None and row.full is None
    assert row.core_gap is not None and row.full_gap is not None
    assert (row.core_gap.kind, row.core_gap.pillars) == (GapKind.MISSING_CORE, ("asr", "tts"))
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert (
        str(en.gap(row.core_gap, "core"))
        == "Core Score needs every core pillar; missing: Recognition and Speech."
    )
    assert (
        str(zh.gap(row.full_gap, "full"))
        == "必須參加的評測範疇未齊，未能計算完整分數；尚欠：語音識別及語音合成。"
    )


def test_a_speech_pillar_with_no_tone_recovered_is_labelled_capped() -> None:
    config, rules = _config()
    record = _record("a", "tts", [80.0, 90.0])
    for clip in record["clips"]:
        clip["tones_recovered"] = 0
    model = _model([record], [_e("a")], config, rules)
    labels = _board(model, "tts").rows[0].labels
    assert Label.CAPPED in labels
    assert "**capped: no tone recovered**" in str(say(model, config, "en").labels(labels))
    assert "**設有上限：未能保留任何聲調**" in str(say(model, config, "zh").labels(labels))


def test_every_final_pillar_gives_a_full_score_equal_to_the_weighted_formula() -> None:
    config, rules = _config()
    records = [
        _record("a", "asr", [(3, 30)]),
        _record("a", "llm", [70.0]),
        _record("a", "tts", [80.0]),
        _record("a", "e2e", [250.0]),
    ]
    row = _model(records, [_e("a")], config, rules).groups[0].composites[0]
    w = {p: config.scoring.pillars[p].weight for p in ("asr", "llm", "tts", "e2e")}
    # asr: CER 0.1 under a floor of 1 gives 90; e2e: latency under the flat threshold, every turn, every yield.
    pillars = {"asr": 90.0, "llm": 70.0, "tts": 80.0, "e2e": 100.0}
    assert row.full is not None and row.core is not None
    assert row.full.value.value == pytest.approx(sum(w[p] * pillars[p] for p in w) / sum(w.values()))
    core = ("asr", "llm", "tts")
    assert row.core.value.value == pytest.approx(
        sum(w[p] * pillars[p] for p in core) / sum(w[p] for p in core)
    )
    # Constant clips: every resample is the point, so the intervals have no width, and that is no ceiling.
    assert row.full.low.value == pytest.approx(row.full.value.value) and not row.full.collapsed


def test_an_interval_collapsed_at_the_ceiling_is_said_so() -> None:
    config, rules = _config()
    model = _model([_record("a", "asr", [(0, 40)])], [_e("a")], config, rules)
    row = _board(model, "asr").rows[0]
    assert (row.figure.value.value, row.figure.low.value, row.figure.high.value) == (100, 100, 100)
    assert row.figure.collapsed
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert str(en.collapse_note(row.figure)).startswith("The interval collapsed to 100: ")
    assert "not certainty" in str(en.collapse_note(row.figure))
    assert str(zh.collapse_note(row.figure)).startswith("區間收窄至 100：")
    # The error rate behind it collapsed too, at zero, and is said as a rate.
    assert row.cer is not None and row.cer.collapsed and row.cer.rate
    assert str(en.collapse_note(row.cer)).startswith("The interval collapsed to 0%: ")
    assert str(zh.collapse_note(row.cer)).startswith("區間收窄至 0%：")


def test_codename_unless_the_entrant_asked_for_their_name_and_a_missing_cross_anchor_says_so() -> None:
    config, rules = _config()
    entrants = [_e("a", name="Secret Labs"), _e("b", name="Open Labs", publish=True)]
    records = [_record("a", "asr", [(4, 40)]), _record("b", "asr", [(5, 40)], anchor=0.07)]
    model = _model(records, entrants, config, rules)
    rows = {str(r.name): r for r in _board(model, "asr").rows}
    assert set(rows) == {"Code A", "Open Labs"}
    assert rows["Code A"].cross_anchor is None
    en, zh = say(model, config, "en"), say(model, config, "zh")
    assert str(en.cross_anchor(rows["Code A"].cross_anchor)) == "no figure submitted"
    assert str(zh.cross_anchor(rows["Code A"].cross_anchor)) == "未有提交"
    assert str(en.cross_anchor(rows["Open Labs"].cross_anchor)) == "7% on WSYue-ASR-eval"
    assert str(zh.cross_anchor(rows["Open Labs"].cross_anchor)) == "7%"
    assert str(rows["Open Labs"].slug) == "code-b"  # the page address never reveals a name


def test_rows_under_different_scoring_versions_are_grouped_and_the_floor_change_explained(
    tmp_path: Path,
) -> None:
    config, rules = _config(tmp_path, older_version=True)
    records = [
        _record("a", "asr", [(2, 10)], version="2025-2"),
        _record("b", "asr", [(2, 10)]),
    ]
    model = _model(records, [_e("a"), _e("b")], config, rules)
    assert [str(g.version) for g in model.groups] == ["2026-1", "2025-2"]
    current, older = model.groups
    assert current.current_floor is None and current.current
    assert older.current_floor is not None and str(older.current_version) == "2026-1"
    assert str(say(model, config, "en").floor_note(older)).startswith(
        "These rows were scored under version 2025-2, when a recognition score reached zero at an error rate of "
        "60%; version 2026-1 puts that floor at 100%."
    )
    assert str(say(model, config, "zh").floor_note(older)).startswith(
        "這一組按評分版本 2025-2 計分：當時語音識別的錯誤率一到 60% 便是零分，評分版本 2026-1 則把零分錯誤率定為 100%。"
    )
    assert older.floor is not None and older.floor.sources == {"scoring.error_rate_floor_history[1].floor"}
    # The same CER of 20% is 80 on today's scale and 66.7 on the old one: never ranked together.
    assert _board(model, "asr", 0).rows[0].figure.value.value == pytest.approx(80)
    assert _board(model, "asr", 1).rows[0].figure.value.value == pytest.approx(100 * (1 - 0.2 / 0.6))
    assert [len(_board(model, "asr", g).rows) for g in (0, 1)] == [1, 1]


# --- refusals ----------------------------------------------------------------------------------------------


def _pool_text(pool: Sequence[PoolClip]) -> str:
    return "".join(json.dumps({"id": c.id, "tier": c.tier}) + "\n" for c in pool)


def _folder(
    tmp_path: Path, records: dict[str, dict[str, Any]], pools: dict[str, Sequence[PoolClip]] | None = None
) -> Path:
    folder = tmp_path / "results"
    (folder / "runs").mkdir(parents=True)
    (folder / "pools").mkdir()
    for round_id, pool in (POOLS if pools is None else pools).items():
        (folder / "pools" / f"{round_id}.jsonl").write_text(_pool_text(pool), encoding="utf-8")
    (folder / "entrants.yaml").write_text(
        "entrants:\n  - {id: a, codename: Code A}\n  - {id: b, codename: Code B}\n"
    )
    for name, data in records.items():
        (folder / "runs" / name).write_text(json.dumps(data), encoding="utf-8")
    return folder


def _bad(kind: str) -> dict[str, Any]:
    good = _record("a", "llm", [70.0])
    if kind == "unknown entrant":
        return _record("zed", "llm", [70.0])
    if kind == "unknown version":
        return {**good, "scoring_version": "1999-1"}
    if kind == "extra clip":
        return {**good, "clips": [*good["clips"], {"id": good["clips"][0]["id"], "score": 1.0}]}
    if kind == "stray clip":
        return {**good, "clips": [*good["clips"][1:], {"id": "not-drawn", "score": 1.0}]}
    if kind == "final with missing clips":
        return {**good, "clips": good["clips"][:-2]}
    if kind == "clips not matching the seed":
        return {**good, "draw": {**good["draw"], "seed": "another"}}
    if kind == "wrong clip model":
        return {**good, "clips": [{"id": c["id"], "S": 1} for c in good["clips"]]}
    if kind == "drawn from the other round's pool":
        return _record("a", "llm", [70.0], drawn_from="qualification")
    if kind == "unknown round":
        return {**good, "round": "semi_final"}
    if kind == "no round":
        return {k: v for k, v in good.items() if k != "round"}
    raise AssertionError(kind)


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("unknown entrant", "entrant 'zed' is not in entrants.yaml."),
        ("unknown version", "scoring version '1999-1' is unknown; the config's floor history names 2026-1."),
        ("extra clip", "a clip is scored twice."),
        ("stray clip", "clip(s) not-drawn were scored but are not in the draw."),
        ("final with missing clips", "it is marked final but lacks 2 of the draw's 30 clips"),
        (
            "clips not matching the seed",
            "the clips it lists for seed 'another' window 'w' are not the clips that seed draws from the pool of "
            "round 'online_challenge'.",
        ),
        ("wrong clip model", "clip 1 (o-easy-"),
        (
            "drawn from the other round's pool",
            "the clips it lists for seed 'a-llm-1' window 'w' are not the clips that seed draws from the pool of "
            "round 'online_challenge'.",
        ),
        (
            "unknown round",
            "round 'semi_final' is not a round of platform.yaml, whose rounds are qualification, online_challenge.",
        ),
        ("no round", "round: Field required."),
    ],
)
def test_a_bad_record_is_refused_with_its_file_and_reason(tmp_path: Path, kind: str, reason: str) -> None:
    _, rules = _config()
    folder = _folder(tmp_path, {"ok.json": _record("b", "llm", [60.0]), "bad.json": _bad(kind)})
    loaded = load_folder(folder, rules=rules, spec=SPEC, root=tmp_path)
    assert [r.source for r in loaded.records] == ["runs/ok.json"]
    assert len(loaded.problems) == 1
    assert loaded.problems[0].source == "runs/bad.json"
    assert loaded.problems[0].reason.startswith(reason), loaded.problems[0].reason


@pytest.mark.parametrize(
    ("second", "kind", "sentences"),
    [
        # The same run twice: both files refused, each naming the other, whichever sorts first.
        (
            {},
            Refusal.DUPLICATE_RUN,
            [
                "runs/1.json: it records run 1 of a on llm in round online_challenge, as runs/2.json does; every "
                "copy is left out until only one remains.",
                "runs/2.json: it records run 1 of a on llm in round online_challenge, as runs/1.json does; every "
                "copy is left out until only one remains.",
            ],
        ),
        # The same draw recorded under another run number.
        (
            {"run": 2},
            Refusal.DUPLICATE_DRAW,
            [
                "runs/1.json: it repeats the draw of runs/2.json (same entrant, pillar, round, seed and window); "
                "every copy is left out until only one remains.",
                "runs/2.json: it repeats the draw of runs/1.json (same entrant, pillar, round, seed and window); "
                "every copy is left out until only one remains.",
            ],
        ),
    ],
)
def test_a_repeated_run_or_draw_refuses_every_copy_naming_the_others(
    tmp_path: Path, second: dict[str, object], kind: Refusal, sentences: list[str]
) -> None:
    _, rules = _config()
    rec = _record("a", "llm", [70.0])
    other = _record("b", "llm", [60.0])
    folder = _folder(tmp_path, {"1.json": rec, "2.json": {**rec, **second}, "3.json": other})
    loaded = load_folder(folder, rules=rules, spec=SPEC, root=tmp_path)
    assert [str(p) for p in loaded.problems] == sentences
    assert {p.kind for p in loaded.problems} == {kind}
    assert [r.source for r in loaded.records] == ["runs/3.json"]


def test_a_run_beyond_the_rounds_quota_is_refused(tmp_path: Path) -> None:
    config, rules = _config()
    quota = config.rounds.runs_per_round
    spec = DrawSpec(30, STRATA, rounds=ROUNDS, separate_pools=True, runs_per_round=quota)
    records = {f"{k}.json": _record("a", "llm", [70.0], run=k) for k in range(1, quota + 2)}
    loaded = load_folder(_folder(tmp_path, records), rules=rules, spec=spec)
    assert sorted(r.run.run for r in loaded.records) == list(range(1, quota + 1))
    assert [(p.source, p.kind) for p in loaded.problems] == [(f"runs/{quota + 1}.json", Refusal.OVER_QUOTA)]
    assert loaded.problems[0].reason == (
        f"it is run {quota + 1}, but each entrant has {quota} scored run(s) per pillar in a round (rounds.yaml, "
        "runs_per_round)."
    )
    assert draw_spec(config).runs_per_round == quota


def test_the_same_run_number_in_another_round_is_another_run(tmp_path: Path) -> None:
    _, rules = _config()
    first = _record("a", "llm", [70.0], round_id="qualification")
    second = {**_record("a", "llm", [72.0], round_id="online_challenge")}
    loaded = load_folder(
        _folder(tmp_path, {"q.json": first, "o.json": second}), rules=rules, spec=SPEC, root=tmp_path
    )
    assert loaded.problems == () and sorted(r.run.round for r in loaded.records) == sorted(ROUNDS)


def test_a_record_whose_round_has_no_pool_is_refused(tmp_path: Path) -> None:
    _, rules = _config()
    records = {
        "o.json": _record("a", "llm", [70.0]),
        "q.json": _record("b", "llm", [70.0], round_id="qualification"),
    }
    folder = _folder(tmp_path, records, pools={"online_challenge": POOL})
    loaded = load_folder(folder, rules=rules, spec=SPEC, root=tmp_path)
    assert [r.source for r in loaded.records] == ["runs/o.json"]
    assert [str(p) for p in loaded.problems] == [
        "runs/q.json: round 'qualification' has no pool in this results folder "
        "(pools/qualification.jsonl), so its draw cannot be reconstructed."
    ]


def _folder_error(tmp_path: Path, pools: dict[str, Sequence[PoolClip]], spec: DrawSpec = SPEC) -> str | None:
    _, rules = _config()
    folder = _folder(tmp_path, {"o.json": _record("a", "llm", [70.0])}, pools=pools)
    try:
        load_folder(folder, rules=rules, spec=spec, root=tmp_path)
    except ResultsFolderError as exc:
        return str(exc)
    return None


def test_pools_of_different_rounds_that_share_clips_are_refused(tmp_path: Path) -> None:
    shared = [*POOLS["qualification"], *POOL[:2], PoolClip(POOL[5].id, POOL[5].tier)]
    assert _folder_error(tmp_path, {"qualification": shared, "online_challenge": POOL}) == (
        "pools/qualification.jsonl and pools/online_challenge.jsonl share 3 clip(s) "
        f"({POOL[0].id}, {POOL[1].id}, {POOL[5].id}), but rounds.yaml has the rounds draw from separate pools "
        "(separate_pools_per_round), so a clip that qualifies an entrant must never score them; take each shared "
        "clip out of one of the pools."
    )


def test_shared_pools_pass_when_the_config_lets_rounds_share_them(tmp_path: Path) -> None:
    spec = DrawSpec(30, STRATA, rounds=ROUNDS, separate_pools=False)
    assert _folder_error(tmp_path, {"qualification": POOL, "online_challenge": POOL}, spec) is None


@pytest.mark.parametrize(
    ("layout", "error"),
    [
        (
            "pool.jsonl",
            "pool.jsonl is a single pool, but each round's records are checked against that round's "
            "pool: keep one pool per round, as pools/<round>.jsonl (the rounds: qualification, online_challenge).",
        ),
        (
            "pools/final.jsonl",
            "pools/final.jsonl is named after no round; platform.yaml's rounds are qualification, "
            "online_challenge.",
        ),
    ],
)
def test_a_pool_outside_the_rounds_layout_is_a_sentence(tmp_path: Path, layout: str, error: str) -> None:
    _, rules = _config()
    folder = _folder(tmp_path, {"o.json": _record("a", "llm", [70.0])})
    (folder / layout).write_text(_pool_text(POOL), encoding="utf-8")
    with pytest.raises(ResultsFolderError) as caught:
        load_folder(folder, rules=rules, spec=SPEC, root=tmp_path)
    assert str(caught.value) == error


def test_the_draw_spec_names_the_configs_rounds() -> None:
    config, _ = _config()
    spec = draw_spec(config)
    assert spec.rounds == tuple(r.id for r in config.platform.rounds) and len(spec.rounds) > 1
    assert spec.separate_pools is config.rounds.separate_pools_per_round
    assert spec.size == config.rounds.draw.size


def test_a_final_record_may_not_lack_clips_but_a_provisional_one_may(tmp_path: Path) -> None:
    _, rules = _config()
    rec = _record("a", "llm", [70.0], final=False)
    rec["clips"] = rec["clips"][:10]
    loaded = load_folder(_folder(tmp_path, {"p.json": rec}), rules=rules, spec=SPEC, root=tmp_path)
    assert loaded.problems == () and len(loaded.records) == 1


def test_the_build_stops_on_a_refused_record_unless_asked_to_go_on_without_it(tmp_path: Path) -> None:
    layout = project_copy(tmp_path)
    folder = _folder(tmp_path, {"ok.json": _record("b", "llm", [60.0]), "bad.json": _bad("unknown entrant")})
    with pytest.raises(
        BadRecordsError, match=r"bad\.json: entrant 'zed' is not in entrants\.yaml\.\n.*--without-bad-records"
    ):
        render_all(layout, results=folder, without_bad_records=False)
    both = render_all(layout, results=folder, without_bad_records=True)
    for pages in (both.pages, both.zh_pages):
        assert "`runs/bad.json`" in pages["standings.md"]
        assert "entrant 'zed' is not in entrants.yaml." in pages["standings.md"]
        assert "entrants/code-b.md" in pages and "entrants/code-a.md" not in pages


def _refused_items(markdown_text: str) -> list[str]:
    """The list items of the page's warning box, as python-markdown (mkdocs' renderer) reads the page."""
    import re

    import markdown

    html = markdown.markdown(markdown_text, extensions=["admonition", "tables"])
    box = re.search(r'<div class="admonition warning">(.*?)</div>', html, re.S)
    assert box is not None, html[:500]
    return re.findall(r"<li>(.*?)</li>", box.group(1), re.S)


def test_every_refusal_is_its_own_line_in_each_edition_with_paths_inside_the_folder(tmp_path: Path) -> None:
    """A results folder outside the project: the refusals are one list item each, named relative to the
    folder, in the page's language; no page of either edition carries the folder's local path."""
    layout = project_copy(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    rec = _record("a", "llm", [70.0])
    folder = _folder(
        outside,
        {
            "ok.json": _record("b", "llm", [60.0]),
            "bad.json": _bad("unknown version"),
            "twin-1.json": rec,
            "twin-2.json": rec,
        },
    )
    both = render_all(layout, results=folder, without_bad_records=True)
    en = _refused_items(both.pages["standings.md"])
    zh = _refused_items(both.zh_pages["standings.md"])
    assert [item.split("</code>")[0] for item in en] == [
        "<code>runs/bad.json",
        "<code>runs/twin-1.json",
        "<code>runs/twin-2.json",
    ]
    assert [item.split("</code>")[0] for item in zh] == [item.split("</code>")[0] for item in en]
    assert (
        "評分版本不明" in zh[0]
        and "同一次測試有多於一份紀錄" in zh[1]
        and "同一次測試有多於一份紀錄" in zh[2]
    )
    assert "as runs/twin-2.json does" in en[1] and "as runs/twin-1.json does" in en[2]
    for edition in (both.pages, both.zh_pages):
        for name, text in edition.items():
            for local in {str(tmp_path), str(tmp_path.resolve()), str(Path.home())}:
                assert local not in text, (name, local)
    # The folder really is outside the project, where the pages once named it by its absolute path.
    assert not folder.resolve().is_relative_to(layout.root.resolve())


# --- the shipped example: figures recomputed independently -------------------------------------------------


def test_the_example_boards_figures_equal_an_independent_recomputation() -> None:
    config = load_config(REPO / "platform_config")
    rules = rules_from_json(scoring_rules_json(config))
    folder = REPO / "results" / "example"
    loaded = load_folder(folder, rules=rules, spec=draw_spec(config), root=REPO)
    assert loaded.problems == ()
    model = board_model(config, loaded, rules=rules)
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for path in sorted((folder / "runs").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        runs.setdefault((data["entrant"], data["pillar"]), []).append(data)
    codename = {e.id: e for e in loaded.entrants.values()}
    boot = rules.bootstrap
    asr = {str(r.name): r for r in _board(model, "asr").rows}
    llm = {str(r.name): r for r in _board(model, "llm").rows}
    for (entrant, pillar), recs in runs.items():
        clips = [
            c for r in sorted(recs, key=lambda r: r["run"]) for c in sorted(r["clips"], key=lambda c: c["id"])
        ]
        e = codename[entrant]
        name = e.name if e.publish_name and e.name else e.codename
        if pillar == "asr":
            errors = [c["S"] + c["D"] + c["I"] for c in clips]
            totals = [c["N"] for c in clips]
            cer = sum(errors) / sum(totals)
            (iv,) = stats.bootstrap_rates(
                [errors], [totals], resamples=boot.resamples, seed=boot.seed, interval=boot.interval
            )
            row = asr[name]
            assert row.cer is not None
            assert (row.cer.value.value, row.cer.low.value, row.cer.high.value) == (cer, iv.low, iv.high)
            assert row.figure.value.value == pytest.approx(100 * (1 - min(cer, 1.0)))
            assert row.figure.low.value == pytest.approx(100 * (1 - iv.high))
        if pillar == "llm":
            values = [c["score"] for c in clips]
            iv = stats.bootstrap_mean(
                values, resamples=boot.resamples, seed=boot.seed, interval=boot.interval, bounds=(0, 100)
            )
            row = llm[name]
            assert row.figure.value.value == math.fsum(values) / len(values)
            assert (row.figure.low.value, row.figure.high.value) == (iv.low, iv.high)
        if pillar == "tts":
            sub = config.scoring.pillars["tts"].sub_weights or {}
            mean_d = sum(c["delivery"] for c in clips) / len(clips)
            mean_t = sum(c["tone_survival"] for c in clips) / len(clips)
            expected = sub["delivery"] * mean_d + sub["tone_survival"] * mean_t
            if sum(c["tones_recovered"] for c in clips) == 0:
                scale = config.scoring.rating_scale
                cap = config.scoring.pillars["tts"].no_tone_cap_rating
                assert cap is not None
                expected = min(expected, 100 * (cap - scale.min) / (scale.max - scale.min))
            got = next(r for r in _board(model, "tts").rows if str(r.name) == name)
            assert got.figure.value.value == pytest.approx(expected, abs=1e-9)
    # Core: the core pillars' figures weighted by the config, rescaled to the core's share.
    weights = {p: config.scoring.pillars[p].weight for p in ("asr", "llm", "tts")}
    pillar_rows = {p: {str(r.name): r.figure.value.value for r in _board(model, p).rows} for p in weights}
    for composite in model.groups[0].composites:
        assert composite.core is not None
        name = str(composite.name)
        expected = sum(weights[p] * pillar_rows[p][name] for p in weights) / sum(weights.values())
        assert composite.core.value.value == pytest.approx(expected, abs=1e-9)
    # Every figure on the board traces to the record files it came from.
    for group in model.groups:
        for b in group.boards:
            for r in b.rows:
                assert r.figure.value.sources and all(s.startswith("runs/") for s in r.figure.value.sources)


# The shipped records are what tools/make_example_results.py's runs make: tests/runner/test_example_tool.py.


# --- which board a build publishes ----------------------------------------------------------------------------

EXAMPLE = REPO / "results" / "example"


@functools.cache
def _example() -> Rendered:
    """Every page of both editions with the example board, asked for explicitly as `--results` asks for it."""
    return render_all(Layout(), results=EXAMPLE)


def _board_pages(pages: dict[str, str]) -> dict[str, str]:
    return {
        name: text for name, text in pages.items() if name == "standings.md" or name.startswith("entrants/")
    }


@pytest.mark.parametrize(
    ("given", "environ", "chosen"),
    [
        (None, {}, None),
        (None, {"CVB_RESULTS": ""}, None),
        (None, {"CVB_RESULTS": "/srv/results"}, Path("/srv/results")),
        (Path("mine"), {"CVB_RESULTS": "/srv/results"}, Path("mine")),
    ],
)
def test_a_build_reads_only_the_results_folder_it_is_given(
    given: Path | None, environ: dict[str, str], chosen: Path | None
) -> None:
    assert chosen_folder(given, environ) == chosen


def test_a_build_without_results_has_no_rows_no_entrant_pages_and_says_when_results_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CVB_RESULTS", raising=False)
    rendered = render_all(Layout())
    said = {
        "en": "Results are published after the Online challenge.",
        "zh": "結果會在網上挑戰賽結束後公佈。",
    }
    for edition, pages in (("en", rendered.pages), ("zh", rendered.zh_pages)):
        board = _board_pages(pages)
        assert list(board) == ["standings.md"], edition
        standings = " ".join(board["standings.md"].split())
        assert said[edition] in standings
        rows = [line for line in standings.split(" | ") if "entrants/" in line]
        assert rows == [] and "](entrants/" not in board["standings.md"]
        assert "| Rank |" not in standings and "| 名次 |" not in standings
        assert "noindex" not in board["standings.md"]
    # The same build with the example asked for has rows and entrant pages: the test can fail.
    assert len(_board_pages(_example().pages)) > 2


def test_the_example_board_says_so_on_every_page_of_both_editions_and_is_kept_out_of_search() -> None:
    rendered = _example()
    banner = {"en": '!!! danger "Example data, not results"', "zh": '!!! danger "示例資料，並非結果"'}
    en, zh = _board_pages(rendered.pages), _board_pages(rendered.zh_pages)
    assert set(en) == set(zh) and len(en) > 2
    for edition, board in (("en", en), ("zh", zh)):
        for name, text in board.items():
            front, _, body = text.partition("\n---\n")
            meta = yaml.safe_load(front.strip().removeprefix("---"))
            assert meta["robots"] == "noindex" and meta["search"] == {"exclude": True}, (edition, name)
            assert banner[edition] in body, (edition, name)
    # Records not marked as example data carry neither.
    config, rules = _config()
    model = _model([_record("a", "llm", [70.0])], [_e("a")], config, rules)
    for edition in ("en", "zh"):
        words = say(model, config, edition)
        assert str(words.banner()).strip() == "" and "noindex" not in str(words.front_matter("x"))


def test_the_example_s_made_up_name_is_marked_fictional_in_each_edition_s_own_words() -> None:
    rendered = _example()
    marked = {"en": "Example Lab (fictional)", "zh": "Example Lab（虛構）"}
    other = {"en": "Example Lab（虛構）", "zh": "Example Lab (fictional)"}
    for edition, pages in (("en", rendered.pages), ("zh", rendered.zh_pages)):
        board = _board_pages(pages)
        shown = {name for name, text in board.items() if "Example Lab" in text}
        # The standings' table and chart, and the entrant's own page with its title.
        assert "standings.md" in shown and any(name.startswith("entrants/") for name in shown), edition
        for name in shown:
            text = board[name]
            assert text.count("Example Lab") == text.count(marked[edition]), (edition, name)
            assert other[edition] not in text, (edition, name)
    # The records name the entrant plainly: the mark is the board's, not the data's.
    assert "fictional" not in (EXAMPLE / "entrants.yaml").read_text(encoding="utf-8").split("entrants:")[1]
    # A name given in records that are not example data is printed as given.
    config, rules = _config()
    model = _model([_record("a", "llm", [70.0])], [_e("a", name="Real Lab", publish=True)], config, rules)
    (page,) = in_edition(model, fictional_mark(Text("fictional", frozenset()), "en")).entrants
    assert str(page.name) == "Real Lab"


@pytest.mark.parametrize("edition", ["en", "zh"])
def test_every_digit_on_the_board_pages_is_a_tracked_value(edition: str) -> None:
    """The publication check's output net over the board pages of each edition: record figures are marked like
    config values, and the Chinese pages carry no Chinese number word that a template typed."""
    from generator.check import scan_output, scan_zh_output

    rendered = render_all(Layout(), mark=True, results=EXAMPLE)
    pages = rendered.pages if edition == "en" else rendered.zh_pages
    board = {
        name: text for name, text in pages.items() if name == "standings.md" or name.startswith("entrants/")
    }
    assert len(board) > 2
    problems = [p for name, text in board.items() for p in scan_output(text, name)]
    if edition == "zh":
        problems += [p for name, text in board.items() for p in scan_zh_output(text, name, {})]
    assert problems == []
    # The net can fail: an untracked figure in the same page is caught.
    assert list(scan_output(board["standings.md"] + "\n| 1 | stray 42.0 |\n", "standings.md"))
    if edition == "zh":
        assert list(scan_zh_output(board["standings.md"] + "\n並列第三名\n", "standings.md", {}))


def test_recognition_clips_are_taken_as_the_scorer_reports_them() -> None:
    """A record's clips may be the `clips` entries of `cvb-score --json` verbatim (extra fields are ignored)."""
    from cvb_scorer.report import score_jsonl_to_json
    from cvb_scorer.rules import load_packaged_rules

    ids = list(draw(POOL, size=30, strata=STRATA, seed="a-asr-1", window="w").ids)
    refs = "".join(json.dumps({"id": i, "text": "我哋聽日去銀行"}, ensure_ascii=False) + "\n" for i in ids)
    hyps = "".join(
        json.dumps({"id": i, "text": "我地聽日去銀行"}, ensure_ascii=False) + "\n" for i in ids[:-1]
    )
    report = json.loads(score_jsonl_to_json(refs, hyps, rules=load_packaged_rules()))
    record = {**_record("a", "asr", [(0, 1)]), "clips": report["clips"]}
    parsed = parse_record(json.dumps(record, ensure_ascii=False))
    errors = sum(c.S + c.D + c.I for c in parsed.clips)  # type: ignore[union-attr]
    assert errors == report["counts"]["S"] + report["counts"]["D"] + report["counts"]["I"]
    config, rules = _config()
    row = _board(_model([record], [_e("a")], config, rules), "asr").rows[0]
    assert row.cer is not None and row.cer.value.value == report["cer"]


def test_cvb_build_exits_2_naming_the_refused_record(tmp_path: Path) -> None:
    import subprocess

    folder = _folder(tmp_path, {"ok.json": _record("b", "llm", [60.0]), "bad.json": _bad("unknown version")})
    cvb = str(REPO / ".venv" / "bin" / "cvb")
    result = subprocess.run(
        [cvb, "build", "--results", str(folder), "--out", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "bad.json: scoring version '1999-1' is unknown" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "site").exists()


# --- the gaps the editions word are the scorer's -----------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(("asr", "llm", "tts", "e2e")), st.booleans(), min_size=1))
def test_the_gaps_name_what_the_scorers_reasons_name(entered: dict[str, bool]) -> None:
    """The board words a withheld score from facts (board.gaps); the scorer's composite states its reason in a
    sentence of pillar ids. Whatever pillars are entered and final, both name the same pillars for the same
    kind of gap, and a gap exists exactly when the scorer withholds the score."""
    from generator.pages.board import gaps
    from generator.results.aggregate import Figure, PillarResult, build_row

    _, rules = _config()
    fig = Figure(50.0, 40.0, 60.0, False)
    results = {
        p: PillarResult(
            p, fig, None, None, None, None, 30, 1, final, False, False, (f"{p}.json",), (50.0,) * 3
        )
        for p, final in entered.items()
    }
    row = build_row(_e("a"), "2026-1", results, rules=rules)
    core_gap, full_gap = gaps(row, rules)
    for gap, reason, score in ((core_gap, row.core_reason, row.core), (full_gap, row.full_reason, row.full)):
        assert (gap is None) == (reason is None) == (score is not None)
        if gap is None or reason is None:
            continue
        _, _, listed = reason.rstrip(".").rpartition("; ")
        word, _, ids = listed.partition(": ")
        assert word == {GapKind.MISSING_CORE: "missing", GapKind.PENDING: "pending"}[gap.kind], reason
        assert sorted(gap.pillars) == sorted(ids.split(", ")), reason


# --- the Chinese board: Hong Kong Traditional characters, numbers traced like the English ------------------


def _zh_board_text() -> str:
    """Every Chinese wording the board can produce: the built pages, and each macro branch over known answers."""
    pages = _example().zh_pages
    text = [v for k, v in pages.items() if k == "standings.md" or k.startswith("entrants/")]
    template = REPO / "docs" / "templates" / "zh" / "_board.md.j2"
    return "\n".join([*text, template.read_text(encoding="utf-8")])


def simplified_only(text: str) -> list[str]:
    from cvb_scorer.normalise.charsets import charsets

    simplified = charsets().simplified_only
    return sorted({ch for ch in text if ch in simplified})


def test_the_chinese_board_has_no_simplified_only_character() -> None:
    """The scorer's frozen OpenCC sets (cvb_scorer/data/charsets.json) name the characters that exist only in
    Simplified Chinese; none may stand on the Chinese standings or entrants' pages, nor in their wording."""
    text = _zh_board_text()
    assert "名次組" in text and "排行榜" in text
    assert simplified_only(text) == []
    # The net can fail: the same sentence in Simplified is caught.
    assert simplified_only("名次组 1：领先；区间与它重叠") == ["区", "叠", "组", "间", "领"]
