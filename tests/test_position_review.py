"""The review of historical positions (`cheren positions check`): the rules between phases
(12.7, 12.4), the sources and citations, the placements' provenance, the answer keys and the
agreement of each week's positions."""

from __future__ import annotations

import pytest

from cheren.cli.main import main
from cheren.engine.actions import EndPhase
from cheren.engine.game import Game
from cheren.engine.position import Supply
from cheren.engine.rule_summaries import RULES
from cheren.files import PositionRecord, dump_position_file, library, open_position, parse_position_text
from cheren.files.position_plans import PlanError, play_plan
from cheren.files.position_problems import position_problems
from cheren.files.position_review import citations, cited_rules, review, review_library
from cheren.scenario import Phase, Side, load_scenario

SCENARIO = load_scenario()
RECORDS = library(SCENARIO)


def edited(name: str, old: str, new: str) -> PositionRecord:
    """A library position with its file text changed."""
    text = (SCENARIO.directory / "positions" / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text, old
    return parse_position_text(text.replace(old, new, 1), SCENARIO, f"{name}.yaml")


def blocking(record: PositionRecord) -> list[str]:
    return [str(x) for x in review(record) if x.blocking]


# -- the library as a whole ------------------------------------------------------------------------
def test_the_library_has_17_positions_5_of_them_italian_each_with_its_answer_key() -> None:
    assert len(RECORDS) >= 17
    italian = [r.name for r in RECORDS if r.question is not None and r.question.side is Side.ITALIAN]
    assert len(italian) >= 5, italian
    for r in RECORDS:
        assert r.question is not None and r.question.text.strip(), r.name
        assert r.happened_next and all(e.date >= r.date and citations(e.text) for e in r.happened_next), r.name
        assert r.plan is not None and r.plan.steps, r.name
        played = play_plan(r)  # through the gate, with the position's own dice
        assert played.side is r.question.side and played.actions, r.name


def test_every_position_passes_the_checker_and_each_week_agrees() -> None:
    items = review_library(RECORDS)
    assert [str(x) for x in items if x.blocking] == []
    explained = [x for x in items if x.severity == "warning"]
    assert explained and all(x.explained for x in explained)  # the warnings left are the narratives' own


def test_the_asmara_score_counts_om_ager_handed_over_by_12_7() -> None:
    asmara = open_position("asmara", SCENARIO).position
    assert "Om Ager" in asmara.allied_control
    assert asmara.allied_vp() == 21 and SCENARIO.victory_level(21) == "Draw"


# -- the rules between phases ----------------------------------------------------------------------
def _play_to(game: Game, side: Side, phase: Phase) -> None:
    while not (game.phasing is side and game.phase is phase) and not game.over:
        if game.pending is not None:
            options = game.legal_actions()
            game.apply(next((a for a in options if a.kind in ("pass_chit", "no_advance")), options[0]))
        else:
            game.apply(EndPhase())


def test_12_7_the_checker_says_which_town_the_next_supply_check_hands_over() -> None:
    record = open_position("barentu", SCENARIO)
    warned = [p for p in position_problems(record.position, next_check=True) if p.rule == "12.7"]
    assert [(p.subject, p.hex.label if p.hex else None) for p in warned] == [("Om Ager", "0418")]
    game = Game.from_position(record.position.copy())
    assert game.position.controller("Om Ager") is Side.ITALIAN
    _play_to(game, Side.ALLIED, Phase.EXPLOITATION)  # through the Allied supply check of turn 3
    assert game.position.controller("Om Ager") is Side.ALLIED
    assert not [p for p in position_problems(game.position, next_check=True) if p.rule == "12.7"]


def test_12_4_the_checker_says_which_unit_the_next_supply_check_marks_low() -> None:
    record = open_position("acqua-col", SCENARIO)
    warned = [p.unit for p in position_problems(record.position, next_check=True) if p.rule == "12.4"]
    assert warned == ["ind_5"]
    game = Game.from_position(record.position.copy())
    _play_to(game, Side.ALLIED, Phase.EXPLOITATION)  # no attack: the supply check comes at once
    assert game.position.units["ind_5"].supply is Supply.LOW


def test_a_warning_is_accepted_only_where_the_narrative_explains_it() -> None:
    record = open_position("acqua-col", SCENARIO)
    record.narrative = record.narrative.replace("(12.4)", "")
    assert any("5 Ind in 2206 cannot draw supply" in x for x in blocking(record))


# -- sources and citations -------------------------------------------------------------------------
def test_a_cited_source_missing_from_the_list_fails_the_review() -> None:
    record = open_position("agordat", SCENARIO)
    record.sources = [s for s in record.sources if not s.startswith("Wikipedia, Battle of Agordat:")]
    found = blocking(record)
    assert any("cites [Wikipedia, Battle of Agordat], which is not in the position's sources" in x for x in found)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("ferdsquad.com", "write a source as 'Key: Author, *Title* (chapter or page)'"),
        ("Ferd: ferdsquad.com", "name the author and the *title*"),
        ("Ball: ourstory.info/library/4-ww2/Ball", "name the author and the *title*"),
        ("Blog: A. Writer, *Lorenzini* (italianiinguerra.wordpress.com)", "a blog or photo site"),
    ],
)
def test_a_bare_domain_or_a_blog_is_not_a_source(source: str, expected: str) -> None:
    record = open_position("cheru", SCENARIO)
    record.sources = [*record.sources, source]
    assert any(expected in x for x in blocking(record))


def test_the_seed_game_keren_justifies_an_aggregation_never_a_fact() -> None:
    record = edited(
        "cheren-first-assault",
        "[Indian official history, ch. 5]",
        "[Indian official history, ch. 5; Keren (game)]",
    )
    record.sources = [*record.sources, "Keren (game): *Keren*, a tactical wargame (the project's seed 002)"]
    assert any("cites the seed game Keren" in x and "as evidence" in x for x in blocking(record))
    record = open_position("cheren-first-assault", SCENARIO)
    record.sources = [*record.sources, "Keren (game): *Keren*, a tactical wargame (the project's seed 002)"]
    uid = "col_41"
    prov = record.provenance[uid]
    record.provenance[uid] = prov.model_copy(update={"note": prov.note + " [Keren (game)]"})
    assert prov.source.value == "reconstructed" and blocking(record) == []  # an aggregation choice: allowed


def test_every_rule_number_a_narrative_cites_exists() -> None:
    numbers = {r.number for r in RULES}
    for r in RECORDS:
        for text in (r.narrative, r.question.text if r.question else "", r.plan.summary if r.plan else ""):
            assert set(cited_rules(text)) <= numbers, r.name
    record = open_position("kassala", SCENARIO)
    record.narrative += "\nA unit may fly (12.9), see rule 16.2.\n"
    found = blocking(record)
    assert any("cites rule 12.9, which the rules do not have" in x for x in found)
    assert any("cites rule 16.2" in x for x in found)


def test_cited_rules_reads_brackets_and_rule_mentions() -> None:
    assert cited_rules("one column (11.1); tanks win (11.4, 11.5) as rule 12.7 says; 4,300 ft") == [
        "11.1", "11.4", "11.5", "12.7"
    ]


# -- placements ------------------------------------------------------------------------------------
def test_a_unit_no_source_places_must_be_marked_reconstructed() -> None:
    record = open_position("kassala", SCENARIO)
    record.position.place("col_bn_arressa", "2412")  # its provenance says: the set-up town (rules, 5.0)
    assert any("no source places Col bn (Arressa) in 2412" in x for x in blocking(record))
    record = open_position("kassala", SCENARIO)
    prov = record.provenance["ind_10"]
    record.provenance["ind_10"] = prov.model_copy(update={"note": "the record says so"})
    assert any("no source places 10 Ind in 0208" in x for x in blocking(record))


def test_same_week_positions_agree_or_say_why_not() -> None:
    cheru = open_position("cheru", SCENARIO)
    cheru.follows = None
    records = [cheru if r.name == "cheru" else r for r in RECORDS]
    found = [str(x) for x in review_library(records) if x.blocking]
    assert any("cheru: follows:" in x and "elsewhere than kassala of the same week" in x for x in found)


# -- the historical plan ---------------------------------------------------------------------------
def test_a_plan_step_the_gate_refuses_names_the_step_and_the_reason() -> None:
    record = edited("agordat-barentu", 'to: "1807"', 'to: "2205"')
    where = r"agordat-barentu: historical_plan.steps\[0\] \(move\)"
    with pytest.raises(PlanError, match=where + ": Col 2 cannot move to 2205"):
        play_plan(record)
    assert any("historical_plan" in x for x in blocking(record))


def test_a_plan_ends_at_its_first_die_roll() -> None:
    record = edited(
        "agordat",
        '    - {kind: attack, target: "1708", attackers: ["5 Ind", "11 Ind", Matilda, "25 Fd RA", "144 Fd RA"]}\n',
        '    - {kind: attack, target: "1708", attackers: ["5 Ind", "11 Ind", Matilda, "25 Fd RA", "144 Fd RA"]}\n'
        "    - {kind: end_phase}\n",
    )
    with pytest.raises(PlanError, match=r"steps\[1\] \(end_phase\): the plan goes on after the die roll of step 1"):
        play_plan(record)


def test_the_answer_key_fields_round_trip_through_the_file() -> None:
    record = open_position("kassala", SCENARIO)
    text = dump_position_file(record)
    back = parse_position_text(text, SCENARIO, "kassala.yaml")
    assert (back.question, back.happened_next, back.plan, back.follows) == (
        record.question, record.happened_next, record.plan, record.follows
    )
    assert dump_position_file(back) == text


# -- the command -----------------------------------------------------------------------------------
def test_cheren_positions_check_reports_and_fails_on_what_must_be_fixed(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    assert main(["positions", "check"]) == 0
    out = capsys.readouterr().out
    assert f"checked {len(RECORDS)} position(s): 0 problem(s) to fix" in out
    assert "note: acqua-col: units [hex 2206]: 5 Ind in 2206 cannot draw supply" in out
    bad = SCENARIO.directory / "positions" / "cheru.yaml"
    text = bad.read_text(encoding="utf-8").replace("(12.4)", "")
    path = __import__("pathlib").Path(str(tmp_path)) / "cheru-edited.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["positions", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "warning: cheru: units [hex 0418]: Col bn (Om Ager) in 0418 cannot draw supply" in out
    assert "checked 1 position(s): 1 problem(s) to fix" in out
