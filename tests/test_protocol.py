"""Every registered game and preset against the written protocol (solver/games/protocol.py):
members declared (never probed), deals deterministic, deal files round-trip with their
game and rules, a won line replays, bad input is one line (issue 13, first step)."""

from __future__ import annotations

import inspect
import json

import pytest
from cli_helpers import one_line_error, patience_here

import solver
from solver import api
from solver.games import _registry, adapter_for, game_names, get_game
from solver.games.protocol import Game, Position, Rules, Search
from solver.engine.resources import tables

VARIANTS = [(name, preset) for name in game_names() for preset in (get_game(name).presets or (None,))]
WON_SEED = {"klondike": 1, "beleaguered-castle": 5, "windmill": 1, "great-wheel": 3}


def _options(preset):
    return {"rules": preset} if preset else {}


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_the_protocol(name):
    g = get_game(name)
    assert isinstance(g, Game)
    assert g.name == name and name not in g.aliases
    assert g.twin is None or callable(g.twin)
    assert g.relaxation is None or callable(g.relaxation)
    assert g.workspace_mb >= 0
    assert all(p == p.lower() for p in g.presets) and "pysolfc" in g.numberings


@pytest.mark.parametrize("key", sorted(set(_registry()) - set(game_names())))
def test_every_preset_adapter_declares_the_protocol_and_plays_its_preset(key):
    """An adapter of a preset with a folder of its own (Windmill's welford) is a game
    adapter named after its game, found for that preset's rules and no other."""
    from solver.games.variants import presets_of

    g = get_game(key)
    assert isinstance(g, Game) and g.name in game_names() and g.aliases == ()
    assert g.presets and set(g.presets) <= set(presets_of(g.name))
    for preset in presets_of(g.name):
        rules = get_game(g.name).make_rules(rules=preset)
        assert (adapter_for(g.name, rules) is g) == (preset in g.presets)
    assert g.make_rules() == g.make_rules(rules=g.presets[0])


def test_names_and_aliases_are_unique():
    seen = [*_registry(), *(a for name in game_names() for a in get_game(name).aliases)]
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("name, preset", VARIANTS)
def test_rules_and_deals_are_data(name, preset, tmp_path):
    front = get_game(name)
    rules = front.make_rules(**_options(preset))
    assert isinstance(rules, Rules)
    assert front.make_rules(**rules.to_json()) == rules  # the options round-trip, as data
    g = adapter_for(name, rules)  # the adapter that plays these rules
    assert isinstance(g, Game) and g.name == name
    a, b = g.deal(7, "pysolfc", rules), g.deal(7, "pysolfc", rules)
    assert isinstance(a, Position) and a.key() == b.key() and a.validate() is None
    assert g.deal(8, "pysolfc", rules).key() != a.key()
    f = tmp_path / "d.json"
    f.write_text(json.dumps(api.deal_file_json(g, rules, a, seed=7, numbering="pysolfc")))
    g2, rules2, back = api.make_deal(name, deal=str(f))  # the file's own rules apply
    assert g2 is g and rules2 == rules and back.key() == a.key()


@pytest.mark.parametrize("name, preset", VARIANTS)
def test_a_won_line_replays_and_searches_keep_the_protocol(name, preset):
    options = _options(preset)
    g = adapter_for(name, get_game(name).make_rules(**options))
    r = solver.solve(name, WON_SEED[name], tt_mb=512, timeout=120, **options)
    assert r.won and r.verified
    _g, rules, position = api.make_deal(name, WON_SEED[name], **options)
    g.verify(position, rules, r.moves)
    last = list(g.positions(position, rules, r.moves))[-1]
    assert g.foundation_cards(last) == g.total_cards(position)
    with tables(16):
        assert isinstance(g.searcher(position, rules, slot="protocol-test"), Search)


@pytest.mark.parametrize("name", game_names())
def test_bad_input_is_one_line_for_every_game(name):
    assert "invalid seed" in one_line_error(patience_here("solve", name, "x", "--tt-mb", "16"))
    if get_game(name).presets:
        assert "rules" in one_line_error(patience_here("solve", name, "1", "--rules", "nonesuch", "--tt-mb", "16"))
    else:
        assert "--rules does not apply" in one_line_error(patience_here("solve", name, "1", "--rules", "x"))


@pytest.mark.parametrize("preset, want", [
    ("standard", {"draw": 1, "passes": "unlimited"}), ("by-threes", {"draw": 3, "passes": "unlimited"}),
    ("vegas", {"draw": 1, "passes": 1}), ("casino", {"draw": 1, "passes": 3}),
])
def test_klondike_presets_are_pysolfc_games_as_data(preset, want):
    from solver.games.variants import VARIANTS

    g = get_game("klondike")
    assert {k: g.make_rules(rules=preset).to_json()[k] for k in want} == want
    assert [v.pysolfc_game for v in VARIANTS if v.preset == preset] == [{"standard": 2, "by-threes": 18,
                                                                        "casino": 61, "vegas": 129}[preset]]
    # an option given explicitly takes the preset's place
    assert g.make_rules(rules="vegas", passes=None).to_json()["passes"] == "unlimited"
    assert g.make_rules(rules="casino", draw=3).to_json() == {"draw": 3, "passes": 3, "worry_back": True}


def test_the_variant_table_and_the_adapters_agree():
    """Presets, their order and their options come from one table (games/variants.py);
    every option's flag is the one the command line takes."""
    from solver.interfaces.cli import solve as solve_command
    from solver.games import ADAPTERS
    from solver.games.variants import OPTIONS, VARIANTS, option_help, options_of, presets_of

    assert sorted({v.game for v in VARIANTS}) == game_names()
    assert sorted(ADAPTERS) == sorted([*game_names(), *(v.adapter for v in VARIANTS if v.adapter)])
    for name in game_names():
        g = get_game(name)
        assert g.presets == presets_of(name)
        params = inspect.signature(g.make_rules).parameters.values()
        assert sorted(p.name for p in params if p.kind is not p.VAR_KEYWORD) == sorted(options_of(name))
        for v in (v for v in VARIANTS if v.game == name and v.preset):
            assert g.make_rules(rules=v.preset) == g.make_rules(rules=v.preset, **v.options)
    params = {o: p for p in solve_command.params for o in p.opts}
    for o in OPTIONS:  # the command line takes each option as the table declares it
        p = params[o.flag]
        assert p.help == option_help(o.name)
        assert (p.is_flag if o.type is bool else p.metavar == o.metavar), o
    assert option_help("rules") == ("Rule preset: great-wheel pgs|pysolfc; klondike standard|by-threes|vegas|casino; "
                                    "windmill pysolfc|strict|welford.")


def test_games_lists_every_variant():
    from solver.games.variants import VARIANTS

    r = patience_here("games")
    assert r.returncode == 0, r.stderr
    for v in VARIANTS:
        assert v.summary in r.stdout
    assert "PySolFC game 30" in r.stdout and "PySolFC game 397" in r.stdout
    help_text = " ".join(patience_here("solve", "--help").stdout.split())
    assert all(name in help_text for name in game_names()) and "patience games" in help_text


@pytest.mark.parametrize("key", sorted(_registry()))
def test_every_proof_a_game_gives_has_its_words(key):
    """Proof labels and their words are the adapters' data (generic code names none):
    every label a game's searches can give has the words the verdict line prints."""
    g = get_game(key)
    assert set(g.search_proofs.values()) <= set(g.proofs)
    if g.relaxation is not None:
        assert "relaxed-rules" in g.proofs
    if g.loss_proof is not None:
        position = g.deal(1, "pysolfc", g.make_rules())
        assert g.loss_proof(position, g.make_rules()).proof in g.proofs


def test_the_verdict_line_prints_the_adapters_words(capsys):
    from solver.interfaces.cli import _print_result
    from solver.core.result import SolveResult

    for name, label in (("great-wheel", "low-cards-released"), ("windmill", "search+endgame"),
                        ("klondike", "relaxed-rules")):
        g = get_game(name)
        result = SolveResult(game=name, rules={}, numbering="pysolfc", seed=1, verdict="lost", reason=None,
                             nodes=1, seconds=0.0, proof=label)
        _print_result(g, None, None, result, None, "pysolfc", False, False)
        line = next(t for t in capsys.readouterr().out.splitlines() if t.startswith("verdict:"))
        assert line == f"verdict: lost ({g.proofs[label]})"
    assert get_game("windmill").search_proofs == {"endgame_lost": "search+endgame"}


@pytest.mark.parametrize("name, preset", VARIANTS)
def test_candidate_moves_hold_every_legal_move(name, preset):
    """``candidate_moves`` (what the line shortener tries) is a superset of
    ``legal_moves``, in its order: along random walks, the candidates that apply_move
    takes are exactly the legal moves."""
    import random

    rng = random.Random(7)
    for seed in (1, 2, 3):
        g, rules, position = api.make_deal(name, seed, **({"rules": preset} if preset else {}))
        for _ in range(60):
            legal = g.legal_moves(position, rules)
            taken = []
            for m in g.candidate_moves(position, rules):
                try:
                    g.apply_move(position, rules, m)
                except ValueError:
                    continue
                taken.append(m)
            assert taken == legal, (name, preset, seed)
            if not legal:
                break
            position = g.apply_move(position, rules, rng.choice(legal))
