"""The Windmill reference engine (pysolfc and strict presets): the judge for this game.

Plain, slow and obviously correct on purpose.  It shares no code with the numba kernel:
the kernel's winning lines are replayed here (``verify_win``), its successors are
compared with ``successors``, its perft counts with ``perft``, and ``solve_exhaustive``
is the brute force for small reduced decks.

Every rule lives in one place, ``why_illegal``; ``legal_moves`` lists candidates and
keeps those it accepts, and ``apply_move`` refuses what it refuses.  The consequences
the game applies by itself (refilling an emptied cell from the waste, turning a stock
card when the waste becomes empty) are done by ``apply_move`` and are not moves.

Moves (``Move(src, dst, card, 1)``; R = ``position.ranks`` plays the King's role):
- ``stock -> waste`` (card None): turn the next stock card (any time, one pass);
- from a cell ``C1..Cn`` or the waste top to ``centre`` (rank one above its top, or
  an Ace on an R) or to a king pile ``K1..K4`` (rank one below its top, or an R into
  an empty pile);
- pysolfc: a king pile's top (even its base R) to the centre or another king pile;
  the centre's top (never its base Ace, i.e. the centre keeps at least one card) to
  a king pile;
- strict: only a king pile's top that is not its base R, to the centre, and not if
  the last card played to the centre came from a king pile (``after_transfer``);
  a cell or waste card played to the centre clears that flag.
"""

from __future__ import annotations

from ...core.moves import Move
from .. import reference_search
from ..replay import IllegalMove, ReplayError, replay_moves, replay_win
from .position import PositionError, WindmillPosition, WindmillRules

__all__ = ["IllegalMove", "ReplayError", "why_illegal", "candidate_moves", "legal_moves", "apply_move", "replay", "verify_win",
           "successors", "perft", "solve_exhaustive"]

KING_NAMES = ("K1", "K2", "K3", "K4")


def _cell(position: WindmillPosition, name: str) -> int | None:
    if len(name) >= 2 and name[0] == "C" and name[1:].isdigit() and name[1] != "0":
        i = int(name[1:]) - 1
        if i < len(position.cells):
            return i
    return None


def _king(name: str) -> int | None:
    return KING_NAMES.index(name) if name in KING_NAMES else None


def _top(position: WindmillPosition, src: str):
    """The card that would move from src (None if none), or raise KeyError for no such pile."""
    if src == "waste":
        return position.waste[-1] if position.waste else None
    if src == "centre":
        return position.centre[-1]
    k = _king(src)
    if k is not None:
        return position.kings[k][-1] if position.kings[k] else None
    i = _cell(position, src)
    if i is not None:
        return position.cells[i]
    raise KeyError(src)


def why_illegal(position: WindmillPosition, rules: WindmillRules, move: Move) -> str | None:
    """None if ``move`` is legal in ``position`` under ``rules``, else the reason it is not."""
    R = position.ranks
    src, dst, card = move.src, move.dst, move.card
    if src == "stock":
        if dst != "waste":
            return "stock cards are turned onto the waste only"
        if card is not None or move.count != 1:
            return "a turn of the stock is one card, named by no card"
        if not position.stock:
            return "the stock is empty (one pass only)"
        return None
    try:
        top = _top(position, src)
    except KeyError:
        return f"no pile {src!r} to move cards from"
    if card is None:
        return "a card move must name its card"
    if move.count != 1:
        return f"one card moves at a time, not {move.count}"
    if top is None:
        return f"{src} is empty"
    if top != card:
        return f"{card} is not the top card of {src} ({top} is)"
    if dst == src:
        return "a card cannot move onto its own pile"
    src_king = _king(src)
    if src == "centre":
        if len(position.centre) == 1:
            return "the centre's base Ace never leaves"
        if rules.strict:
            return "strict rules: cards never leave the centre"
    if src_king is not None and rules.strict:
        if dst != "centre":
            return "strict rules: a king pile's card may go to the centre only"
        if len(position.kings[src_king]) == 1:
            return "strict rules: a king pile's base King never leaves"
        if position.after_transfer:
            return "strict rules: the last card played to the centre came from a king pile"
    if dst == "centre":
        if len(position.centre) == 4 * R:
            return "the centre is complete (A..R four times)"
        want = len(position.centre) % R + 1
        if card.rank != want:
            return f"the centre takes a rank {want} card next, not {card}"
        return None
    k = _king(dst)
    if k is not None:
        pile = position.kings[k]
        want = pile[-1].rank - 1 if pile else R
        if want < 1:
            return f"{dst} is complete"
        if card.rank != want:
            return f"{dst} takes a rank {want} card next, not {card}"
        return None
    if dst in ("stock", "waste") or _cell(position, dst) is not None:
        return f"cards never move to {dst} (cells are only refilled from the waste, by the game)"
    return f"no pile {dst!r} to move cards to"


def candidate_moves(position: WindmillPosition, rules: WindmillRules | None = None) -> list[Move]:
    """A superset of the legal moves, in a fixed order."""
    out = [Move("stock", "waste", None, 1)]
    sources = [f"C{i + 1}" for i in range(len(position.cells))] + ["waste", "centre", *KING_NAMES]
    for src in sources:
        top = _top(position, src)
        if top is not None:
            out.extend(Move(src, dst, top, 1) for dst in ("centre", *KING_NAMES) if dst != src)
    return out


def legal_moves(position: WindmillPosition, rules: WindmillRules) -> list[Move]:
    return [m for m in candidate_moves(position) if why_illegal(position, rules, m) is None]


def _refill(new: WindmillPosition) -> None:
    """The game's own follow-ups: an empty cell takes the waste top; an empty waste takes a stock card."""
    for i, c in enumerate(new.cells):
        if c is None and new.waste:
            new.cells[i] = new.waste.pop()
    if not new.waste and new.stock:
        new.waste.append(new.stock.pop())


def apply_move(position: WindmillPosition, rules: WindmillRules, move: Move) -> WindmillPosition:
    """The position after ``move`` (and the game's refills); IllegalMove if it is not legal."""
    reason = why_illegal(position, rules, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    new = position.copy()
    if move.src == "stock":
        new.waste.append(new.stock.pop())
        return new
    src = move.src
    if src == "waste":
        card = new.waste.pop()
    elif src == "centre":
        card = new.centre.pop()
    elif _king(src) is not None:
        card = new.kings[_king(src)].pop()
    else:
        i = _cell(new, src)
        card = new.cells[i]
        new.cells[i] = None
    if move.dst == "centre":
        new.centre.append(card)
        if rules.strict:
            new.after_transfer = _king(src) is not None
    else:
        new.kings[_king(move.dst)].append(card)
    _refill(new)
    return new


def replay(position: WindmillPosition, rules: WindmillRules, moves: list[Move]) -> WindmillPosition:
    return replay_moves(position, moves, lambda p, m: apply_move(p, rules, m), "Windmill", PositionError)


def verify_win(position: WindmillPosition, rules: WindmillRules, moves: list[Move]) -> None:
    """Raise ReplayError unless ``moves`` replay from ``position`` to a won game."""
    replay_win(position, moves, lambda p, m: apply_move(p, rules, m), "Windmill",
               lambda f: f"{f.on_foundations()} of {8 * f.ranks} cards on the foundations", PositionError)


def successors(position: WindmillPosition, rules: WindmillRules) -> list[WindmillPosition]:
    """The position after each legal move (in legal_moves order)."""
    return [apply_move(position, rules, m) for m in legal_moves(position, rules)]


def perft(position: WindmillPosition, rules: WindmillRules, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (no transpositions)."""
    return reference_search.perft(lambda p: successors(p, rules), position, depth)



def perft_divide(position: WindmillPosition, rules: WindmillRules, depth: int) -> dict[str, int]:
    """perft split by first move (for the per-move breakdown of a failing perft test)."""
    return reference_search.perft_divide(
        lambda p: ((str(m), apply_move(p, rules, m)) for m in legal_moves(p, rules)),
        lambda p: successors(p, rules), position, depth)

def solve_exhaustive(position: WindmillPosition, rules: WindmillRules, max_states: int = 1_000_000) -> bool | None:
    """Search every legal move (no pruning, no symmetry): True/False, None past max_states."""
    return reference_search.solve_exhaustive(lambda p: successors(p, rules), position, max_states)
