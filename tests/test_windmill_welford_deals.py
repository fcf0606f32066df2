"""Welford Windmill deals (numbering), deal files (round trip, bad input), the adapter
and the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

import solver
from solver.core.cards import Card
from solver.core.dealfile import DealFileError
from solver.games.windmill_welford import reference as R
from solver.games.windmill_welford.game import WindmillWelford
from solver.games.windmill_welford.dealfile import dump_deal, load_deal, position_from_json, position_to_json
from solver.games.windmill_welford.deals import welford_deal, welford_packs
from solver.core.numbering import pysolfc_deck
from solver.games.replay import ReplayError
from solver.engine.resources import tables


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


# ------------------------------------------------------------------ numbering


def test_deal_vectors():
    p = welford_deal(1)
    assert [s for s in p.sails] == [cards("4D 3D"), cards("6S AD"), cards("2S 5C"), cards("6C QC")]
    assert p.stock[-6:] == cards("7H KH AH 8C 9S 3C")  # 3C is dealt first
    assert p.stock[:4] == cards("2H 4C 6S 8C")  # pack 2's last cards
    assert (p.centre, p.pack1, len(p.stock), p.waste, p.redeals) == (1, 43, 95, [], 0)
    q = welford_deal(40000)  # Mersenne Twister numbers
    assert q.sails == [cards("7H TS"), cards("8H 6C"), cards("TC QH"), cards("3C 2H")]
    assert q.stock[-4:] == cards("AH 8C JH 6S")
    small = welford_deal(7, ranks=3, sails=2)
    assert small.sails == [cards("2H AH"), cards("AS 2C")]
    assert small.stock == cards("2C 3S 2D AC 2S AS 3D AD 3H 3C 2H AH 2S AD 3C 3S 3D 3H 2D")
    assert small.pack1 == 7


def test_numbering_as_documented():
    """Pack 1 less its Ace of Clubs, then pack 2 with the same LCG continuing."""
    state = 5

    def randint(a, b):
        nonlocal state
        state = (state * 214013 + 2531011) % (1 << 33)
        return a + ((state >> 16) & 0x7FFF) % (b + 1 - a)

    def shuffle(xs):
        xs = list(xs)
        for n in range(len(xs) - 1, 0, -1):
            j = randint(0, n)
            xs[n], xs[j] = xs[j], xs[n]
        return xs

    pack1 = shuffle(pysolfc_deck()[1:])
    pack2 = shuffle(pysolfc_deck())
    assert welford_packs(5) == (pack1, pack2)
    p = welford_deal(5)
    assert p.sails == [[pack1[-1 - i], pack1[-5 - i]] for i in range(4)]
    assert p.stock == pack2 + pack1[:-8]


@pytest.mark.parametrize("seed", [1, 2, 31999, 32000, 123456])
def test_deal_structure(seed):
    p = welford_deal(seed)
    p.validate()
    pack1 = [c for s in p.sails for c in s] + p.stock[-p.pack1:]
    assert Counter(pack1) == Counter(c for c in pysolfc_deck() if c != Card(1, 0))
    assert Counter(p.stock[:-p.pack1]) == Counter(pysolfc_deck())


def test_bad_deal_requests():
    for kwargs in ({"numbering": "solvitaire"}, {"ranks": 1}, {"sails": 5}, {"ranks": 2, "sails": 4}):
        with pytest.raises(ValueError):
            welford_deal(1, **kwargs)
    with pytest.raises(ValueError):
        welford_deal(0)


# ------------------------------------------------------------------ deal files


def _random_positions(n: int):
    rng = random.Random(3)
    out = []
    for seed in range(1, n + 1):
        ranks, sails = rng.choice([(13, 4), (4, 2), (3, 1), (6, 3)])
        p = welford_deal(seed, ranks=ranks, sails=sails)
        for _ in range(rng.randrange(0, 120)):
            kids = R.successors(p)
            if not kids:
                break
            p = rng.choice(kids)
        out.append(p)
    return out


def test_deal_file_round_trip(tmp_path):
    for i, p in enumerate(_random_positions(40)):
        path = tmp_path / f"d{i}.json"
        dump_deal(p, path)
        assert load_deal(path) == p
        assert position_from_json(json.loads(json.dumps(position_to_json(p)))) == p


BASE = position_to_json(welford_deal(1))


@pytest.mark.parametrize("change, words", [
    ({"sails": None}, "missing key \"sails\""),
    ({"colour": 1}, "unknown key"),
    ({"stock": "3C"}, "list of cards"),
    ({"sails": [["4D", "3D"]] * 5}, "1 to 4 sails"),
    ({"sails": [["4D", "3D", "2S"], ["6S", "AD"], ["2S", "5C"], ["6C", "QC"]]}, "at most 2"),
    ({"sails": [["4d", "3D"], ["6S", "AD"], ["2S", "5C"], ["6C", "QC"]]}, "face down"),
    ({"sails": [["XD", "3D"], ["6S", "AD"], ["2S", "5C"], ["6C", "QC"]]}, "unknown card"),
    ({"sails": [["4D", "4D"], ["6S", "AD"], ["2S", "5C"], ["6C", "QC"]]}, "appears 3 times"),
    ({"centre": 2}, "do not add up"),
    ({"centre": 60}, "\"centre\" must be an integer from 1 to 52"),
    ({"pack1": 96}, "\"pack1\" must be an integer from 0 to 95"),
    ({"redeals": 2}, "\"redeals\""),
    ({"redeals": 1}, "after the waste was turned over"),
    ({"kings": [["QD"], [], [], []]}, "king pile runs"),
    ({"kings": [["KD"], [], [], []]}, "appears 3 times"),
    ({"kings": [[], []]}, "4 king piles"),
    ({"ranks": 14}, "\"ranks\""),
])
def test_bad_deal_files(tmp_path, change, words):
    obj = dict(BASE)
    for key, value in change.items():
        if value is None:
            obj.pop(key)
        else:
            obj[key] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    with pytest.raises(DealFileError) as err:
        load_deal(path)
    msg = str(err.value)
    assert words in msg and "\n" not in msg and str(path) in msg


def test_bad_king_pile_and_cap_in_files():
    p = welford_deal(1, ranks=4, sails=2)
    obj = position_to_json(p)
    # move a 4 and a 2 from the stock onto K1 in the wrong order
    obj["stock"].remove("4S")
    obj["stock"].remove("2S")
    obj["kings"] = [["2S", "4S"], [], [], []]
    with pytest.raises(DealFileError, match="king pile runs"):
        position_from_json(obj)
    p2 = welford_deal(1)
    obj2 = position_to_json(p2)
    obj2["centre"] = 13
    with pytest.raises(DealFileError):
        position_from_json(obj2)


def test_unreadable_files(tmp_path):
    with pytest.raises(DealFileError, match="cannot read"):
        load_deal(tmp_path / "missing.json")
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    with pytest.raises(DealFileError, match="not JSON"):
        load_deal(bad)
    bad.write_text("[]")
    with pytest.raises(DealFileError, match="JSON object"):
        load_deal(bad)


# ------------------------------------------------------------------ adapter and CLI


def test_adapter_solves_and_verifies(tmp_path):
    g = WindmillWelford
    p = g.deal(5, "pysolfc", None)
    assert p.preset == "welford" and p == welford_deal(5)
    with tables(16):
        search = g.searcher(p, None)
        assert search.start() is None
        verdict = None
        while verdict is None:
            verdict = search.run(4096)
    assert verdict == "won"
    line = search.line()
    g.verify(p, None, line)
    seen = list(g.positions(p, None, line))
    assert len(seen) == len(line) and seen[-1].is_won()
    with pytest.raises(ReplayError):
        g.verify(p, None, line[:-1])
    with pytest.raises(ReplayError):
        g.verify(p, None, [line[1]] + line)
    assert "stock: 95 cards" in g.render(p)
    assert g.deal_to_json(p) == position_to_json(p)
    path = tmp_path / "d.json"
    dump_deal(p, path)
    assert g.load_deal(path, None) == p


def test_every_spelling_keeps_the_stored_configuration_key():
    """Databases written before Welford had a folder of its own still match: a batch
    of the preset, however named, has the configuration key it always had."""
    from solver.runs.batch import Batch
    from solver.runs.store import config_key

    want = config_key("windmill", {"rules": "welford"}, "pysolfc", 1000, None)
    welford = solver.api.get_game("windmill").make_rules(rules="welford")
    for game, options in (("windmill", {"rules": "welford"}), ("propeller", {"rules": "Welford"}),
                          ("windmill-welford", {})):
        b = Batch(game, "1-2", max_nodes=1000, workers=1, **options)
        assert (b.game, b.rules, b.key) == ("windmill", {"rules": "welford"}, want)
        assert b.task_args(1)[-1] == {"rules": welford}  # the workers solve the welford preset (its rules, made once)


def test_api_solve_windmill_welford():
    r = solver.solve("windmill", 5, rules="welford", tt_mb=16)
    assert r.verdict == "won" and r.verified
    assert any(m.src == "stock" and m.dst.startswith("C") for m in r.moves)  # refills are explicit
    # the JSON form of the moves replays too
    from solver.core.moves import Move

    moves = [Move.from_json(m.to_json()) for m in r.moves]
    R.verify_win(welford_deal(5), moves)


def test_cli_solve_windmill_welford(tmp_path):
    out = subprocess.run([sys.executable, "-m", "solver", "solve", "windmill", "5", "--rules", "welford",
                          "--json", "--tt-mb", "16"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["verdict"] == "won"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"sails": []}))
    out = subprocess.run([sys.executable, "-m", "solver", "solve", "windmill", "--rules", "welford",
                          "--deal", str(bad)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0, out.stderr


def test_drive_limits_give_unknown():
    from solver.engine.search import Limits, drive
    from solver.games.windmill_welford.searcher import WelfordSearch

    hard = welford_deal(1)  # not decided within these limits
    with tables(16):
        out = drive(WelfordSearch(hard), Limits(max_nodes=50_000))
    assert (out.verdict, out.reason, out.nodes) == ("unknown", "node-limit", 50_000)
    with tables(0.05):
        small = WelfordSearch(hard)  # a full table evicts (tt.py): the search goes on
        out = drive(small, Limits(max_nodes=300_000))
    assert (out.verdict, out.reason) == ("unknown", "node-limit") and small.counters()["tt_dropped"] > 0
    with tables(16):
        s = WelfordSearch(hard)
        s.start()
        s.run(1000)
    assert s.nodes == 1001 and s.stored_states <= s.nodes
