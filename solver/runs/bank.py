"""Banks of decided deals: the seeds a batch proved won (or lost), graded, in a plain
text format a solitaire program can load to offer "winnable deals only".

Difficulty is measured, not guessed: the search effort to the first win (nodes), ranked
within the bank.  A deal is ``easy`` when fewer than half of the bank's deals took fewer
nodes, ``medium`` when fewer than 90% did, else ``hard`` (so equal effort gets an equal
grade, and a bank of one deal is easy).  Nodes depend on the solver's move
order as well as on the deal, so a grade says how hard the deal was to solve by
search, which tracks (but is not) how hard it is for a person; the winning line's
length is listed beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.numbering import PYSOLFC
from ..core.result import LOST, WON, describe_rules
from .store import Row, Store

# (share of the bank that took fewer nodes: below this, grade)
GRADES = ((0.5, "easy"), (0.9, "medium"), (float("inf"), "hard"))


@dataclass(frozen=True)
class Entry:
    seed: int
    grade: str  # "" for lost deals
    nodes: int
    moves: int


def decided(store: Store, game: str, rules: dict, numbering: str, verdict: str = WON) -> list[Row]:
    """Rows of every configuration of (game, rules, numbering) in the database whose
    verdict is ``verdict``, one per seed (limits differ between configurations; a
    decided verdict holds under any of them), by seed."""
    best: dict[int, Row] = {}
    for c in store.configs():
        if (c.game, c.rules, c.numbering) != (game, rules, numbering):
            continue
        for row in store.rows(c.id):
            if row.verdict == verdict and (row.seed not in best or row.nodes < best[row.seed].nodes):
                best[row.seed] = row
    return [best[s] for s in sorted(best)]


def graded(rows: list[Row]) -> list[Entry]:
    """Won rows with their grade (GRADES: by rank of nodes within ``rows``)."""
    order = sorted(r.nodes for r in rows)
    first = {}  # nodes -> rank of the first deal with that many (equal effort, equal grade)
    for rank, nodes in enumerate(order):
        first.setdefault(nodes, rank)

    def grade(nodes: int) -> str:
        share = first[nodes] / len(order)  # the share of the bank that took fewer nodes
        return next(name for limit, name in GRADES if share < limit)

    return [Entry(r.seed, grade(r.nodes), r.nodes, r.length) for r in rows]


def bank_text(game: str, rules: dict, numbering: str, entries: list[Entry], verdict: str = WON) -> str:
    """The bank as plain text: '#' comment lines, then one deal per line,
    ``seed grade nodes moves`` (won) or ``seed`` (lost)."""
    kind = "winnable" if verdict == WON else "lost (proven)"
    head = [f"# patience-solver: {kind} deals, {len(entries)}",
            f"# game: {game}; rules: {describe_rules(rules)}; numbering: {numbering}"
            + (" (PySolFC game numbers)" if numbering == PYSOLFC else "")]
    if verdict == WON:
        head += ["# grade: by the search's nodes to the first win, within this list: easy when under 50% of the",
                 "#        deals took fewer nodes, medium under 90%, else hard",
                 "# seed grade nodes moves"]
        body = [f"{e.seed} {e.grade} {e.nodes} {e.moves}" for e in entries]
    else:
        head += ["# seed"]
        body = [str(e.seed) for e in entries]
    return "\n".join(head + body) + "\n"


def bank(store: Store, game: str, rules: dict, numbering: str, verdict: str = WON) -> list[Entry]:
    rows = decided(store, game, rules, numbering, verdict)
    if verdict == WON:
        return graded(rows)
    if verdict == LOST:
        return [Entry(r.seed, "", r.nodes, 0) for r in rows]
    raise ValueError(f"a bank holds won or lost deals, not {verdict!r}")
