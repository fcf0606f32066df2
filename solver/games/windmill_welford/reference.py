"""The reference engine of Welford's Windmill: the judge of the kernel.

Plain, slow and obviously correct on purpose.  It shares no move-generation code with
the numba kernel: the kernel's winning lines are replayed here (``verify_win``), its
children are compared with ``successors`` and its verdicts with ``solve_exhaustive``
(brute force for reduced decks).

Every rule lives in one place, ``why_illegal``.  ``legal_moves`` only lists candidate
moves and keeps those ``why_illegal`` accepts, and ``apply_move`` refuses what it
refuses, so the moves listed and the moves that can be played cannot disagree.

The moves of a player's line (``Move`` objects; pile names in position.py):

- ``X -> centre`` (card): the top card of a sail (``C1``..``C8``), the waste top or a
  king pile's top (``K1``..``K4``) onto the centre, whose next rank it must be
  (A..K, then A again; suits never matter);
- ``X -> Kj`` (card): a sail top or the waste top onto king pile j: a King onto an
  empty pile, otherwise the rank one below the pile's top.  A king-pile card never
  moves to another king pile (the text names only the centre as its destination);
- ``stock -> Cx`` (card): one card of a refill (below);
- ``stock -> waste`` (no card, count 1): turn one card onto the waste (a draw);
- ``waste -> stock`` (no card, count 0): turn the waste over for the one extra pass.

Rules where Welford's text is explicit:
- the centre may not go beyond its first Queen (rank ranks-1) while pack 1 is being
  dealt, i.e. while the stock still holds a card of pack 1;
- a king-pile card may go to the centre only if it is not a King, its pile is not
  completed (a completed pile, King down to Ace, is out of play), and no sail top card
  could go to the centre instead ("a card on a sail always has priority");
- gaps are filled only when the player chooses to (after playing what he wants), from
  the stock, and all of them at once: the refill fills the inner gaps of sails 1..4,
  then the outer gaps of sails 1..4, one stock card each, until no gap is left or the
  stock is empty.  While a refill is under way (``refilling``) nothing else may be
  played, and no card may be turned to the waste while a gap could still be filled;
- after both packs (stock empty), the waste may be turned over once and gone through
  once more.

Decisions where the text is silent (documented in game.py too): sails are refilled
in the order 1, 2, 3, 4 (inner gaps first); during the extra pass gaps are still
filled from the stock (the turned-over waste is "the pack"); the cap lifts as soon as
the last card of pack 1 has left the stock; the waste is turned over so that its
bottom card (the first turned) comes out first again; no card is turned to the waste
at the deal.
"""

from __future__ import annotations

from ...core.moves import Move
from .. import reference_search
from ..replay import IllegalMove, ReplayError, replay_moves, replay_win  # noqa: F401 (re-exported)
from .position import KING_PILES, SAILS, WelfordPosition, WelfordPositionError, rank_name

_KING_NAMES = {f"K{j + 1}": j for j in range(KING_PILES)}


def _cell(name: str, nsails: int) -> tuple[int, int] | None:
    """``C1``..``C8`` -> (sail, 0 inner / 1 outer) for the sails this position has."""
    if len(name) >= 2 and name[0] == "C" and name[1:].isdigit():
        k = int(name[1:]) - 1
        if 0 <= k < 2 * SAILS:
            sail, level = k % SAILS, k // SAILS
            if sail < nsails:
                return sail, level
    return None


def cell_name(sail: int, level: int) -> str:
    return f"C{sail + 1 + SAILS * level}"


def _top_cell(position: WelfordPosition, sail: int) -> str | None:
    n = len(position.sails[sail])
    return cell_name(sail, n - 1) if n else None


def _sail_can_feed_centre(position: WelfordPosition) -> str | None:
    """The name of a sail top cell whose card could go to the centre now, if any."""
    want = position.centre_next()
    if not want or position.capped():
        return None
    for i, sail in enumerate(position.sails):
        if sail and sail[-1].rank == want:
            return _top_cell(position, i)
    return None


# ---------------------------------------------------------------------------
# The rules


def why_illegal(position: WelfordPosition, move: Move) -> str | None:
    """None if ``move`` is legal in ``position``, else the reason it is not."""
    p = position
    R = p.ranks
    src, dst, card = move.src, move.dst, move.card
    gaps = p.gaps()

    # Refill, card by card.
    if src == "stock" and dst != "waste":
        where = _cell(dst, p.nsails)
        if where is None:
            return f"stock cards go to the waste or, in a refill, to the sails (C1..C{2 * SAILS}), not {dst}"
        if not p.stock:
            return "the stock is empty"
        if not gaps:
            return "there is no gap to fill"
        if where != gaps[0]:
            return (f"the next gap to fill is {cell_name(*gaps[0])} (inner cells before outer ones, "
                    f"sails in order 1..{SAILS}), not {dst}")
        if card != p.stock[-1]:
            return f"the stock's top card is {p.stock[-1]}, not {card}"
        if move.count != 1:
            return "a refill places one card at a time"
        return None

    if p.refilling:
        return f"the sails are being rebuilt: the next move must fill {cell_name(*gaps[0])} from the stock"

    if src == "stock":  # dst == "waste": a draw
        if card is not None or move.count != 1:
            return "a draw turns one card and names no card"
        if not p.stock:
            return "the stock is empty"
        if gaps:
            return f"the gaps in the sails ({', '.join(cell_name(*g) for g in gaps)}) must be filled first"
        return None

    if src == "waste" and dst == "stock":
        if card is not None or move.count != 0:
            return "turning the waste over names no card and has count 0"
        if p.stock:
            return "the stock is not empty yet"
        if not p.waste:
            return "the waste is empty"
        if p.redeals:
            return "the waste may be turned over only once"
        return None

    if card is None:
        return "a card move must name its card"
    if move.count != 1:
        return f"cards move one at a time, not {move.count}"

    # Where the card comes from.
    src_king = _KING_NAMES.get(src)
    if src == "waste":
        if not p.waste:
            return "the waste is empty"
        if card != p.waste[-1]:
            return f"{card} is not the waste's top card ({p.waste[-1]} is)"
    elif src_king is not None:
        pile = p.kings[src_king]
        if not pile:
            return f"{src} is empty"
        if card != pile[-1]:
            return f"{card} is not the top card of {src} ({pile[-1]} is)"
        if len(pile) == R:
            return f"{src} is completed and out of play"
        if card.rank == R:
            return f"a {rank_name(R, R)} on a king pile never goes to the centre"
        if dst != "centre":
            return "king-pile cards may go only to the centre"
    else:
        where = _cell(src, p.nsails)
        if where is None:
            return f"no pile {src}"
        sail, level = where
        if len(p.sails[sail]) != level + 1:
            top = _top_cell(p, sail)
            return f"{src} is not the top card of sail {sail + 1}" + (f" ({top} is)" if top else " (it is empty)")
        if card != p.sails[sail][-1]:
            return f"{card} is not in {src} ({p.sails[sail][-1]} is)"

    # Where it goes.
    if dst == "centre":
        want = p.centre_next()
        if card.rank != want:
            return f"the centre takes {rank_name(want, R) if want else 'nothing more'} next, not {card}"
        if p.capped():
            return (f"while pack 1 is being dealt the centre may not go beyond its first "
                    f"{rank_name(R - 1, R)}")
        if src_king is not None:
            sail_cell = _sail_can_feed_centre(p)
            if sail_cell is not None:
                return f"a sail card has priority: {sail_cell} could go to the centre instead"
        return None
    dst_king = _KING_NAMES.get(dst)
    if dst_king is None:
        return f"cards cannot be played to {dst}"
    pile = p.kings[dst_king]
    if not pile:
        if card.rank != R:
            return f"only a {rank_name(R, R)} starts a king pile"
        return None
    if len(pile) == R:
        return f"{dst} is completed and out of play"
    if card.rank != pile[-1].rank - 1:
        return f"{card} is not one rank below {pile[-1]} (king piles build down regardless of suit)"
    return None


def apply_move(position: WelfordPosition, move: Move) -> WelfordPosition:
    """The position after ``move``; IllegalMove (with the reason) if it is illegal."""
    reason = why_illegal(position, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    p = position.copy()
    if move.src == "stock" and move.dst != "waste":
        sail, level = _cell(move.dst, p.nsails)
        p.sails[sail].append(p.stock.pop())
        p.pack1 = max(0, p.pack1 - 1)  # the top card was a pack-1 card while pack1 > 0
        p.refilling = bool(p.stock) and bool(p.gaps())
        return p
    if move.src == "stock":
        p.waste.append(p.stock.pop())
        p.pack1 = max(0, p.pack1 - 1)  # the top card was a pack-1 card while pack1 > 0
        return p
    if move.src == "waste" and move.dst == "stock":
        p.stock = p.waste[::-1]  # the first card turned comes out first again
        p.waste = []
        p.redeals += 1
        return p
    if move.src == "waste":
        card = p.waste.pop()
    elif move.src in _KING_NAMES:
        card = p.kings[_KING_NAMES[move.src]].pop()
    else:
        card = p.sails[_cell(move.src, p.nsails)[0]].pop()
    if move.dst == "centre":
        p.centre += 1
    else:
        p.kings[_KING_NAMES[move.dst]].append(card)
    return p


def candidate_moves(position: WelfordPosition) -> list[Move]:
    """A superset of the legal single moves, in ``legal_moves``' order: card moves first
    (centre before king piles), then the refill, the draw and the redeal."""
    p = position
    candidates: list[Move] = []
    dsts = ["centre"] + list(_KING_NAMES)
    srcs = []
    if p.waste:
        srcs.append(("waste", p.waste[-1]))
    for i, sail in enumerate(p.sails):
        if sail:
            srcs.append((_top_cell(p, i), sail[-1]))
    for name, j in _KING_NAMES.items():
        if p.kings[j]:
            srcs.append((name, p.kings[j][-1]))
    for src, card in srcs:
        candidates.extend(Move(src, dst, card, 1) for dst in dsts)
    for i in range(p.nsails):
        for level in (0, 1):
            candidates.append(Move("stock", cell_name(i, level), p.stock[-1] if p.stock else None, 1))
    candidates.append(Move("stock", "waste", None, 1))
    candidates.append(Move("waste", "stock", None, 0))
    return [m for m in candidates if m.card is not None or m.src != "stock" or m.dst == "waste"]


def legal_moves(position: WelfordPosition) -> list[Move]:
    """Every legal single move: the candidates that ``why_illegal`` allows."""
    return [m for m in candidate_moves(position) if why_illegal(position, m) is None]


def actions(position: WelfordPosition) -> list[list[Move]]:
    """The player's choices from a position that is not mid-refill: each single legal
    move, except that a refill is one action made of all its card placements."""
    out = []
    for move in legal_moves(position):
        if move.src == "stock" and move.dst != "waste":
            seq = [move]
            p = apply_move(position, move)
            while p.refilling:
                (nxt,) = legal_moves(p)
                seq.append(nxt)
                p = apply_move(p, nxt)
            out.append(seq)
        else:
            out.append([move])
    return out


def apply_action(position: WelfordPosition, action: list[Move]) -> WelfordPosition:
    for move in action:
        position = apply_move(position, move)
    return position


def successors(position: WelfordPosition) -> list[WelfordPosition]:
    """The position after each action (a refill counts as one)."""
    return [apply_action(position, a) for a in actions(position)]


def perft(position: WelfordPosition, depth: int) -> int:
    """Number of action sequences of length ``depth``."""
    return reference_search.perft(successors, position, depth)



def perft_divide(position: WelfordPosition, depth: int) -> dict[str, int]:
    """perft split by first action (for the per-move breakdown of a failing perft test)."""
    return reference_search.perft_divide(
        lambda p: ((" + ".join(map(str, a)), apply_action(p, a)) for a in actions(p)), successors, position, depth)

def solve_exhaustive(position: WelfordPosition) -> list[Move] | None:
    """A winning line, or None if none exists: plain DFS over exact positions (``key()``,
    no symmetry, no pruning).  For reduced decks only."""
    import sys

    seen: set = set()
    path: list[list[Move]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))

    def dfs(p: WelfordPosition) -> bool:
        if p.is_won():
            return True
        k = p.key()
        if k in seen:
            return False
        seen.add(k)
        for a in actions(p):
            path.append(a)
            if dfs(apply_action(p, a)):
                return True
            path.pop()
        return False

    if dfs(position):
        return [m for a in path for m in a]
    return None


def _progress(p: WelfordPosition) -> str:
    return f"{p.cards_home()} of {8 * p.ranks} cards on the centre and the king piles"


def replay(position: WelfordPosition, moves: list[Move]) -> WelfordPosition:
    return replay_moves(position, moves, apply_move, "Windmill (welford)", WelfordPositionError)


def verify_win(position: WelfordPosition, moves: list[Move]) -> WelfordPosition:
    """Replay ``moves``; ReplayError unless they are all legal and win."""
    return replay_win(position, moves, apply_move, "Windmill (welford)", _progress, WelfordPositionError)
