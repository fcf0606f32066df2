"""Rule options as data end to end (issue 25): every command's rule flags come from the
options table, one request deals once and makes its rules once, and the library names
an option by its key, never by a command-line flag."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from solver import api
from solver.core.errors import OptionError
from solver.games import variants
from solver.games.variants import OPTIONS, Option, option_help
from solver.interfaces import cli

RULE_COMMANDS = ("solve", "deal", "hint", "batch", "seeds")  # the commands that take GAME's rules


def _flags(command: click.Command) -> dict[str, click.Parameter]:
    return {o: p for p in command.params for o in p.opts}


@pytest.mark.parametrize("name", RULE_COMMANDS)
def test_every_option_of_the_table_is_a_flag_of_every_rule_command(name):
    flags = _flags(cli.main.commands[name])
    for o in OPTIONS:
        p = flags[o.flag]
        assert p.help == option_help(o.name) and p.name == o.name
        assert (p.is_flag if o.type is bool else p.metavar == o.metavar), o


def test_the_commands_without_rules_take_no_rule_flag():
    takes = {name for name, c in cli.main.commands.items() if set(_flags(c)) & {o.flag for o in OPTIONS}}
    assert takes == set(RULE_COMMANDS)


def test_an_option_added_to_the_table_becomes_a_flag(monkeypatch):
    """One row in the table is all the command line needs: flag, help, parsing, and
    the check that the game has the option."""
    colour = Option("colour", "--colour", str, None, "the colour of the backs", ("klondike",), "NAME")
    monkeypatch.setattr(variants, "OPTIONS", (*OPTIONS, colour))
    got = {}

    @click.command()
    @click.argument("game")
    @cli.rule_options
    def probe(game, numbering, options):
        got.update(game=game, options=options)

    assert _flags(probe)["--colour"].help == "Klondike: the colour of the backs."
    assert "--colour NAME" in CliRunner().invoke(probe, ["--help"]).output
    r = CliRunner().invoke(probe, ["klondike", "--colour", "red", "--draw", "3"])
    assert r.exit_code == 0, r.output
    assert got == {"game": "klondike", "options": {"colour": "red", "draw": 3}}
    r = CliRunner().invoke(probe, ["windmill", "--colour", "red"])
    assert r.exit_code != 0 and "--colour does not apply to windmill" in r.output


def _count(monkeypatch, cls, name):
    calls = []
    original = getattr(cls, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(cls, name, staticmethod(counted))
    return calls


def test_solve_deals_once_and_makes_its_rules_once(monkeypatch):
    from solver.games.klondike.game import Klondike

    monkeypatch.setenv("PATIENCE_SERVER", "off")
    deals, rules = _count(monkeypatch, Klondike, "deal"), _count(monkeypatch, Klondike, "make_rules")
    r = CliRunner().invoke(cli.main, ["solve", "klondike", "3", "--draw", "3", "--max-nodes", "1000",
                                      "--tt-mb", "16", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["rules"]["draw"] == 3
    assert (len(deals), len(rules)) == (1, 1)


def test_a_hint_deals_once_and_makes_its_rules_once(monkeypatch):
    from solver.games.klondike.game import Klondike

    deals, rules = _count(monkeypatch, Klondike, "deal"), _count(monkeypatch, Klondike, "make_rules")
    result, step = api.hint("klondike", 3, [], max_nodes=1000, tt_mb=16, passes="unlimited")
    assert result.won and step is not None
    assert (len(deals), len(rules)) == (1, 1)


def test_a_batch_makes_its_rules_once_for_every_deal(monkeypatch):
    from solver.games.klondike.game import Klondike
    from solver.runs.batch import Batch

    rules = _count(monkeypatch, Klondike, "make_rules")
    got = list(Batch("klondike", "1-4", max_nodes=500, tt_mb=16, workers=2, mode="threads", draw=3))
    assert sorted(r.seed for r in got) == [1, 2, 3, 4] and all(r.rules["draw"] == 3 for r in got)
    assert len(rules) == 1


def test_klondike_reads_its_own_passes():
    """'unlimited' is Klondike's word: its make_rules reads it, from a flag's text or
    from the rules' JSON, and the rules' JSON makes the same rules again."""
    g = api.get_game("klondike")
    for given in (None, "unlimited", "UNLIMITED"):
        assert g.make_rules(passes=given).passes is None
    assert g.make_rules(passes="3") == g.make_rules(passes=3)
    for typed in ("inf", "INF", "1_0", "+3", "\u0663"):  # not words a person means by a number of passes
        with pytest.raises(ValueError, match="passes"):
            g.make_rules(passes=typed)
    for rules in (g.make_rules(), g.make_rules(rules="vegas", draw=3, worry_back=False)):
        assert g.make_rules(**rules.to_json()) == rules


def _library_errors(tmp_path):
    """Bad input to the library, one call each."""
    from solver.engine.resources import check_tt_mb
    from solver.engine.search import Limits
    from solver.games.variants import from_pysolfc_id
    from solver.runs.batch import Batch

    redealt = tmp_path / "k.json"
    obj = api.deal_file_json(*api.make_deal("klondike", 5), seed=5, numbering="pysolfc")
    redealt.write_text(json.dumps({**obj, "redeals": 5}))
    return {
        "tt_mb": lambda: api.solve("klondike", 1, tt_mb=0),
        "tt_mb memory": lambda: check_tt_mb(1e12),
        "max_nodes": lambda: Limits(max_nodes=0),
        "timeout": lambda: Limits(timeout=-1),
        "draw": lambda: api.make_deal("klondike", 1, draw=0),
        "passes": lambda: api.make_deal("klondike", 1, passes=0),
        "passes text": lambda: api.make_deal("klondike", 1, passes="x"),
        "redeals": lambda: api.make_deal("klondike", deal=str(redealt), passes=3),
        "windmill draw": lambda: api.make_deal("windmill", 1, draw=3),
        "great-wheel draw": lambda: api.make_deal("great-wheel", 1, draw=3),
        "welford": lambda: api.get_game("windmill-welford").make_rules(rules="strict"),
        "pysolfc id": lambda: from_pysolfc_id("129", {"rules": "strict"}),
        "pysolfc id unknown": lambda: from_pysolfc_id("9999", {}),
        "workers": lambda: Batch("klondike", "1-2", workers=0),
        "workers and scheduler": lambda: Batch("klondike", "1-2", workers=2, scheduler="tcp://localhost:1"),
    }


def test_library_errors_name_no_flag_and_the_command_line_does(tmp_path):
    flags = 0
    for label, call in _library_errors(tmp_path).items():
        with pytest.raises(ValueError) as info:
            call()
        text = str(info.value)
        assert "--" not in text, (label, text)
        if isinstance(info.value, OptionError):  # the command line names the option by its flag
            said = cli.said(info.value)
            assert cli.flag_of(info.value.option) in said, (label, said)
            flags += 1
    assert flags >= 12


def test_the_command_line_spells_the_library_keys_as_its_flags():
    assert [cli.flag_of(k) for k in ("tt_mb", "max_nodes", "worry_back", "draw", "rules")] == \
        ["--tt-mb", "--max-nodes", "--no-worry-back", "--draw", "--rules"]
    err = OptionError("workers", "{option} and {option:mode} set up a local batch")
    assert str(err) == "workers and mode set up a local batch"
    assert cli.said(err) == "--workers and --mode set up a local batch"
