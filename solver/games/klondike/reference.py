"""The Klondike reference engine: the project's judge.

Plain, slow and obviously correct on purpose.  It shares no move-generation code with
the numba kernel: the kernel's winning lines are replayed here (``verify_win``), its
moves are compared with ``legal_moves`` and its stock macro-moves with
``macro_successors``; ``solve_exhaustive`` is the brute force for tiny reduced decks.

Every rule lives in one place, ``why_illegal``.  ``legal_moves`` only lists candidate
moves and keeps those ``why_illegal`` accepts, and ``apply_move`` refuses what it
refuses, so the list of legal moves and the moves that can be played cannot disagree.

Rules (the highest rank of the deck, ``position.ranks``, plays the King's role):
- tableau: build down in alternating colours; any face-up run that is a valid sequence
  may move; only a King-headed run (or a single King) into an empty pile; a face-down
  card is turned up as soon as it is uncovered;
- foundations F1..F4 (Clubs, Diamonds, Hearts, Spades) by suit from the Ace; with
  ``rules.worry_back`` a foundation's top card may go back to the tableau;
- stock: a draw turns ``min(rules.draw, len(stock))`` cards one at a time, ``stock[-1]``
  first, so the last card turned is the new waste top; when the stock is empty the
  waste may be turned over into the stock (a redeal) if passes are unlimited or
  ``redeals < passes - 1``.  Turning over reverses the waste, so the cards come out in
  the same order as in the previous pass.
"""

from __future__ import annotations

from ...core.cards import SUIT_NAMES, Card
from ...core.moves import Move
from .. import reference_search
from ..replay import IllegalMove, ReplayError, replay_moves, replay_win  # noqa: F401 (ReplayError re-exported)
from .position import KlondikePosition, KlondikeRules, PositionError


# ---------------------------------------------------------------------------
# Small helpers


_TABLEAU_NAMES = {f"T{i + 1}": i for i in range(7)}
_FOUNDATION_NAMES = {"F1": 0, "F2": 1, "F3": 2, "F4": 3}  # suits C, D, H, S


def _tableau_index(position: KlondikePosition, name: str) -> int | None:
    """``T1``..``Tn`` -> 0..n-1 for the piles this position has, else None."""
    i = _TABLEAU_NAMES.get(name)
    return i if i is not None and i < len(position.tableau) else None


def _foundation_suit(name: str) -> int | None:
    """``F1``..``F4`` -> suit 0..3 (C, D, H, S), else None."""
    return _FOUNDATION_NAMES.get(name)


def _builds_on(card: Card, under: Card) -> bool:
    """May ``card`` lie on ``under`` in the tableau (one rank lower, other colour)?"""
    return card.rank == under.rank - 1 and card.red != under.red


def _is_sequence(cards: list[Card]) -> bool:
    return all(_builds_on(upper, lower) for lower, upper in zip(cards, cards[1:]))


def _fits_on_pile(card: Card, pile: list[Card], ranks: int) -> str | None:
    """Why ``card`` (the bottom card of what moves) may not go onto tableau ``pile``."""
    if not pile:
        if card.rank != ranks:
            return f"only a {'King' if ranks == 13 else f'rank-{ranks} card'} may go to an empty pile"
        return None
    if not _builds_on(card, pile[-1]):
        return f"{card} does not build down in alternating colours on {pile[-1]}"
    return None


def _redeal_allowed(position: KlondikePosition, rules: KlondikeRules) -> bool:
    return rules.passes is None or position.redeals < rules.passes - 1


# ---------------------------------------------------------------------------
# The rules


def why_illegal(position: KlondikePosition, rules: KlondikeRules, move: Move) -> str | None:
    """None if ``move`` is legal in ``position``, else the reason it is not."""
    src, dst, card, count = move.src, move.dst, move.card, move.count

    if src == "stock":
        if dst != "waste":
            return "stock cards can only be turned onto the waste"
        if card is not None:
            return "a draw names no card"
        if not position.stock:
            return "the stock is empty"
        expected = min(rules.draw, len(position.stock))
        if count != expected:
            return f"a draw now turns {expected} card(s), not {count}"
        return None

    if src == "waste" and dst == "stock":
        if card is not None or count != 0:
            return "a redeal names no card and has count 0"
        if position.stock:
            return "the stock is not empty yet"
        if not position.waste:
            return "the waste is empty"
        if not _redeal_allowed(position, rules):
            return f"no redeal left ({rules.passes} pass(es) allowed, {position.redeals} redeal(s) done)"
        return None

    if card is None:
        return "a card move must name its card"
    if count < 1:
        return f"a card move moves at least 1 card, not {count}"

    # Where the cards come from.
    src_pile = _tableau_index(position, src)
    src_suit = _foundation_suit(src)
    if src == "waste":
        if not position.waste:
            return "the waste is empty"
        if card != position.waste[-1]:
            return f"{card} is not the waste top card ({position.waste[-1]} is)"
        if count != 1:
            return "only one waste card moves at a time"
    elif src_pile is not None:
        pile = position.tableau[src_pile]
        face_up = len(pile) - position.face_down[src_pile]
        if count > face_up:
            return f"{src} has only {face_up} face-up card(s), cannot move {count}"
        if pile[-count] != card:
            return f"{card} is not the bottom card of the top {count} card(s) of {src}"
        if not _is_sequence(pile[-count:]):
            return f"the cards from {card} up in {src} are not a built sequence"
    elif src_suit is not None:
        if not rules.worry_back:
            return "cards may not come back from the foundations (worry-back is off)"
        height = position.foundations[src_suit]
        if height == 0:
            return f"{src} is empty"
        if card != Card(height, src_suit):
            return f"{card} is not the top card of {src}"
        if count != 1:
            return "one foundation card moves at a time"
    else:
        return f"no pile {src!r} to move cards from"

    # Where they go.
    dst_pile = _tableau_index(position, dst)
    dst_suit = _foundation_suit(dst)
    if dst_suit is not None:
        if src_suit is not None:
            return "a foundation card may only go back to the tableau"
        if count != 1:
            return "cards go to a foundation one at a time"
        if card.suit != dst_suit:
            return f"{dst} holds {SUIT_NAMES[dst_suit]}, not {card}"
        if card.rank != position.foundations[dst_suit] + 1:
            return f"{card} does not follow the {position.foundations[dst_suit]} card(s) on {dst}"
        return None
    if dst_pile is not None:
        if dst == src:
            return "cards cannot move onto their own pile"
        return _fits_on_pile(card, position.tableau[dst_pile], position.ranks)
    return f"no pile {dst!r} to move cards to"


def candidate_moves(position: KlondikePosition, rules: KlondikeRules) -> list[Move]:
    """Moves worth asking ``why_illegal`` about: a superset of the legal moves.

    (Only shape is used here: a card is offered to its own suit's foundation and to
    every other tableau pile.  The tests check against all conceivable moves that
    nothing legal is left out.)
    """
    tableau_names = [f"T{i + 1}" for i in range(len(position.tableau))]
    candidates = [
        Move("stock", "waste", None, min(rules.draw, len(position.stock))),
        Move("waste", "stock", None, 0),
    ]
    if position.waste:
        top = position.waste[-1]
        candidates.append(Move("waste", f"F{top.suit + 1}", top, 1))
        candidates.extend(Move("waste", dst, top, 1) for dst in tableau_names)
    for i, pile in enumerate(position.tableau):
        if pile:
            candidates.append(Move(tableau_names[i], f"F{pile[-1].suit + 1}", pile[-1], 1))
        for count in range(1, len(pile) - position.face_down[i] + 1):
            for dst in tableau_names:
                if dst != tableau_names[i]:
                    candidates.append(Move(tableau_names[i], dst, pile[-count], count))
    for suit, height in enumerate(position.foundations):
        if height:
            candidates.extend(Move(f"F{suit + 1}", dst, Card(height, suit), 1) for dst in tableau_names)
    return candidates


def legal_moves(position: KlondikePosition, rules: KlondikeRules) -> list[Move]:
    """All legal atomic moves, in a fixed order: draw, redeal, waste, tableau, foundation."""
    return [m for m in candidate_moves(position, rules) if why_illegal(position, rules, m) is None]


def apply_move(position: KlondikePosition, rules: KlondikeRules, move: Move) -> KlondikePosition:
    """The position after ``move``; raises IllegalMove (with the reason) if it is not legal."""
    reason = why_illegal(position, rules, move)
    if reason is not None:
        raise IllegalMove(move, reason)
    new = position.copy()
    if move.is_draw:
        for _ in range(move.count):  # one at a time: stock[-1] is turned first
            new.waste.append(new.stock.pop())
        return new
    if move.is_redeal:
        new.stock = new.waste[::-1]  # the first card turned last pass comes out first again
        new.waste = []
        if rules.passes is not None:  # with unlimited passes the count is meaningless: keep 0
            new.redeals += 1
        return new

    # Take the cards off their pile.
    if move.src == "waste":
        moving = [new.waste.pop()]
    elif move.src.startswith("T"):
        i = _tableau_index(new, move.src)
        moving = new.tableau[i][-move.count:]
        del new.tableau[i][-move.count:]
        # Turn up a face-down card that is now uncovered.
        if new.face_down[i] == len(new.tableau[i]) and new.face_down[i] > 0:
            new.face_down[i] -= 1
    else:
        suit = _foundation_suit(move.src)
        moving = [Card(new.foundations[suit], suit)]
        new.foundations[suit] -= 1

    # Put them down.
    suit = _foundation_suit(move.dst)
    if suit is not None:
        new.foundations[suit] += 1
    else:
        new.tableau[_tableau_index(new, move.dst)].extend(moving)
    return new


# ---------------------------------------------------------------------------
# Replaying move lists


def replay(position: KlondikePosition, rules: KlondikeRules, moves: list[Move]) -> KlondikePosition:
    """Play ``moves`` from ``position``; ReplayError names the first bad move (1-based)."""
    return replay_moves(position, moves, lambda p, m: apply_move(p, rules, m), "Klondike", PositionError)


def verify_win(position: KlondikePosition, rules: KlondikeRules, moves: list[Move]) -> None:
    """Raise ReplayError unless ``moves`` replay from ``position`` to a won game."""
    replay_win(position, moves, lambda p, m: apply_move(p, rules, m), "Klondike", _progress, PositionError)


def _progress(final: KlondikePosition) -> str:
    on = ", ".join(f"F{s + 1}={n}" for s, n in enumerate(final.foundations))
    return f"foundations {on} of {final.ranks}"


# ---------------------------------------------------------------------------
# Stock macro-moves


def _stock_move(position: KlondikePosition, rules: KlondikeRules) -> Move | None:
    """The one stock action available: a draw if the stock has cards, else a redeal."""
    if position.stock:
        return Move("stock", "waste", None, min(rules.draw, len(position.stock)))
    if position.waste and _redeal_allowed(position, rules):
        return Move("waste", "stock", None, 0)
    return None


def macro_moves(position: KlondikePosition, rules: KlondikeRules) -> dict[KlondikePosition, list[Move]]:
    """Each macro successor with one move sequence that reaches it (see macro_successors)."""
    found: dict[KlondikePosition, list[Move]] = {}

    # 1. Exactly one non-stock move (this includes playing the current waste top).
    for move in legal_moves(position, rules):
        if not (move.is_draw or move.is_redeal):
            found.setdefault(apply_move(position, rules, move), [move])

    # 2. Stock actions, then play the waste top: each card only the first time it is
    #    the waste top; stop when the talon comes back to a configuration already
    #    seen (or no stock action is left).  The current waste top counts as already
    #    seen: when it comes round again after a redeal, the cards before it are
    #    again exactly the waste and the cards after it the stock, so that is this
    #    very talon with a redeal used up -- never better than playing it now.
    def talon(p: KlondikePosition) -> tuple:
        return (tuple(p.stock), tuple(p.waste), p.redeals)

    seen = {talon(position)}
    used_tops: set[Card] = set(position.waste[-1:])
    current, path = position, []
    while (stock_move := _stock_move(current, rules)) is not None:
        current = apply_move(current, rules, stock_move)
        path = path + [stock_move]
        if talon(current) in seen:
            break
        seen.add(talon(current))
        if not current.waste or current.waste[-1] in used_tops:
            continue
        used_tops.add(current.waste[-1])
        for move in legal_moves(current, rules):
            if move.src == "waste" and not move.is_redeal:
                found.setdefault(apply_move(current, rules, move), path + [move])
    return found


def macro_successors(position: KlondikePosition, rules: KlondikeRules) -> set[KlondikePosition]:
    """Positions reachable by one non-stock move, or by one or more stock actions
    (draws/redeals) followed by playing the waste top to a foundation or the tableau.

    Drawing alone does not make a successor.  Each talon card counts only the first
    time it is the waste top, the current waste top included: it is played by a
    plain move now and is not offered again when it comes round after a redeal.
    """
    return set(macro_moves(position, rules))


def describe(moves: list[Move]) -> str:
    """Short text for a macro move: ``[3 draws, redeal, 1 draw] 7C: waste -> T2``."""
    *stock_moves, last = moves
    parts: list[str] = []
    for m in stock_moves:
        if m.is_redeal:
            parts.append("redeal")
        elif parts and parts[-1].endswith(("draw", "draws")):
            n = int(parts[-1].split()[0]) + 1
            parts[-1] = f"{n} draws"
        else:
            parts.append("1 draw")
    prefix = f"[{', '.join(parts)}] " if parts else ""
    return prefix + str(last)


def perft(position: KlondikePosition, rules: KlondikeRules, depth: int) -> int:
    """Number of macro-successor sequences of length ``depth`` (no transpositions)."""
    return reference_search.perft(lambda p: macro_successors(p, rules), position, depth)


def perft_divide(position: KlondikePosition, rules: KlondikeRules, depth: int) -> dict[str, int]:
    """perft split by first macro move (keyed by ``describe``), for failure messages."""
    return reference_search.perft_divide(
        lambda p: ((describe(moves), child) for child, moves in macro_moves(p, rules).items()),
        lambda p: macro_successors(p, rules), position, depth)


# ---------------------------------------------------------------------------
# Brute force


def solve_exhaustive(position: KlondikePosition, rules: KlondikeRules,
                     max_states: int = 1_000_000) -> bool | None:
    """Depth-first search over every atomic move, no pruning, no move ordering
    (reference_search.solve_exhaustive): True, False, or None past ``max_states``."""
    return reference_search.solve_exhaustive(
        lambda p: (apply_move(p, rules, m) for m in legal_moves(p, rules)), position, max_states)
