"""Great Wheel's loss proof: the game with its low cards released (a relaxation).

In the relaxed game the low cards (Aces, Twos, Threes) never lie in the waste and leave a
tableau pile as soon as they are on top of it:

- turning a low card *releases* it: a Two or Three goes to an Evens/Odds pile of its own
  (there is always one: a suit's two piles hold one Two each, and the same for Threes),
  an Ace simply leaves the game (the Ace foundation is not modelled);
- a low card on top of a pile is released the same way (at the start and whenever the
  card above it leaves);
- a refill takes k high cards (ranks 4 and up) from the waste top, turning the stock when
  the waste is empty and releasing the low cards it turns; k may be less than ``fill``
  only if the missing cards could have been low ones: low cards turned above the first
  high card left in the waste (any turned one if none is left), plus m low cards turned
  from the stock after the last one taken (m is a choice), or the talon runs out;
- a pile that becomes empty need not be refilled at once: an empty pile while the talon
  has cards (a real pile holding only low cards) may be refilled so at any time;
- every other move is the real one, for high cards only: plays to the Evens/Odds piles,
  turning a card, building down in suit once the stock is empty, moving to an empty pile
  once stock and waste are empty, and under ``pysolfc`` a high Evens/Odds top going back
  to the tableau.

Why a deal the relaxed game cannot win is lost (the proof the verdict names,
``low-cards-released``).  Relate a real position q and a relaxed one s when they have
turned the same number of cards; s's waste is q's without its low cards; s's piles are
q's (one to one) with some low cards left out, including every low card of each pile's
top run; and s's Evens/Odds piles are q's, except that a pile empty in q may hold its Two
or Three in s.  The start positions are related.  Every real move from q has a relaxed
answer, zero or more moves from s, after which the positions are related again:

- playing, building or returning a low card, or playing an Ace: nothing (s released
  the card when it was turned or came to the top; q's piles only lose or gain low cards
  on top, which s leaves out);
- turning a card: the same turn (a low card is released onto an Evens/Odds pile that is
  empty in s, because s has released only the copies q turned or uncovered);
- a high card X played, built or returned: X is the top of the related waste, pile or
  Evens/Odds pile in s too (only low cards are left out), and its target is there as
  well: an Evens/Odds pile topped by a high card or by a Two/Three q has (s holds every
  card q holds), or a pile topped by a high card (the same card in s), or an empty pile
  (empty in q means empty in s; q's talon empty means s's waste empty);
- a pile emptied in q and refilled with fill cards: s's pile is empty too and s makes the
  refill of the same k high cards; the fill - k low ones were either in q's waste above
  the first high card the refill leaves there (q's waste is in turning order, and s's
  is q's without its low cards), or turned from the stock by the refill itself, so the
  refill is allowed, and s then has turned what q has.  When s's pile empties but q's
  does not (q's still holds low cards that s left out), s leaves it empty and refills it
  later, when q does.
Finally q won (stock, waste and piles empty) implies s won.  So a real winning line
gives a relaxed one: if the relaxed game has no win, the deal has none.  The search
below is exhaustive over the relaxed game (every move listed, exact states kept in a
set: a state is skipped only when that exact state was met before).

Why it helps: a lost deal's search spends most of its positions on the choice, for
every low card turned, of playing it or burying it (results/great-wheel-search-space.md);
here there is no such choice.  The brute-force tests check the proof's claim (never a
relaxed loss where the exhaustive reference search wins) and that it fires.

The search is plain Python, run by search.drive beside the main search and its twin.
It does at most one of its states per ``COST`` nodes of the slice it is given, so that
its slices take about as long as a kernel's.
"""

from __future__ import annotations

from ...core.moves import Move
from ...core.result import LOST, MEMORY_LIMIT, WON
from .position import GWPosition, GWRules

LOW = 3  # Aces, Twos and Threes
COST = 16  # kernel nodes per relaxed state in a slice: about their speed ratio, so that its slices
# take about as long as the twin's
MAX_STATES = 2_000_000  # states kept before the proof gives up
MAX_STATES_MB = 1100  # memory at MAX_STATES, for batch sizing (results/great-wheel-loss-proof.md)
PROOF = "low-cards-released"


def _rank(c: int) -> int:
    return c % 13 + 1


class LowCardsReleased:
    """The exhaustive search of the relaxed game (module doc), with search.drive's
    protocol.  A state: (piles as sorted tuples of card indices, cards turned, waste as
    talon positions, Evens/Odds pile heights as sorted pairs per (suit, Evens/Odds))."""

    proves_loss = True
    proof = PROOF
    join_after = 1 << 16  # main-search nodes before it joins (search.drive)

    def __init__(self, position: GWPosition, rules: GWRules, max_states: int = MAX_STATES):
        self.returns = rules.returns
        self.fill = position.fill
        self.ranks = position.ranks
        self.max_states = max_states
        self.talon = [c.index for c in position.waste] + [c.index for c in reversed(position.stock)]
        self.T = len(self.talon)
        self.low_from = [0] * (self.T + 1)  # low cards at talon positions p and after
        for p in range(self.T - 1, -1, -1):
            self.low_from[p] = self.low_from[p + 1] + (_rank(self.talon[p]) <= LOW)
        heights = []
        for s in range(4):
            for piles in (position.evens, position.odds):
                hs = sorted(len(p) for p in piles if p and p[0].suit == s)
                heights.append(([0, 0] + hs)[-2:])
        for c in position.waste:
            if c.rank <= LOW:
                self._release(heights, c.index)
        waste = tuple(j for j, c in enumerate(position.waste) if c.rank > LOW)
        self.root = self._state([tuple(c.index for c in p) for p in position.tableau], len(position.waste), waste,
                                tuple(tuple(h) for h in heights))
        self.nodes = 0
        self.stored_states = 0
        self._seen: set = set()
        self._stack: list = []

    # --- the relaxed rules ---------------------------------------------------------

    @staticmethod
    def _release(heights: list, c: int) -> None:
        r = _rank(c)
        if r > 1:  # an Ace leaves the game
            pair = heights[2 * (c // 13) + r - 2]
            assert pair[0] == 0, "a released Two or Three always finds an empty pile"
            pair[0] = 1
            pair.sort()

    def _state(self, piles: list, nd: int, waste: tuple, fnd: tuple) -> tuple:
        """The state with the low cards on top of each pile released, piles sorted."""
        out = []
        heights = None
        for pile in piles:
            while pile and _rank(pile[-1]) <= LOW:
                if heights is None:
                    heights = [list(h) for h in fnd]
                self._release(heights, pile[-1])
                pile = pile[:-1]
            out.append(pile)
        if heights is not None:
            fnd = tuple(tuple(h) for h in heights)
        return tuple(sorted(out)), nd, waste, fnd

    def _turned(self, fnd: tuple, a: int, b: int) -> tuple:
        """fnd after turning talon positions a..b-1 (their low cards released)."""
        heights = None
        for p in range(a, b):
            if _rank(self.talon[p]) <= LOW:
                if heights is None:
                    heights = [list(h) for h in fnd]
                self._release(heights, self.talon[p])
        return fnd if heights is None else tuple(tuple(h) for h in heights)

    @staticmethod
    def _played(fnd: tuple, c: int) -> tuple | None:
        """fnd after a high card c goes onto an Evens/Odds pile, or None if none takes it."""
        r = _rank(c)
        odd = r % 2
        h = (r - 3) // 2 if odd else r // 2 - 1  # height of a pile topped by rank r - 2
        k = 2 * (c // 13) + odd
        a, b = fnd[k]
        if a == h:
            new = (h + 1, b) if h + 1 <= b else (b, h + 1)
        elif b == h:
            new = (a, h + 1)
        else:
            return None
        return fnd[:k] + (new,) + fnd[k + 1:]

    def _refills(self, piles: list, i: int, nd: int, waste: tuple, fnd: tuple) -> list:
        """The relaxed refills of the empty pile i (module doc)."""
        out = []
        taken: list[int] = []
        w = list(waste)
        for k in range(self.fill + 1):
            if k > 0:
                if w:
                    taken.append(w.pop())
                else:
                    p = nd
                    while p < self.T and _rank(self.talon[p]) <= LOW:
                        p += 1
                    if p >= self.T:
                        break
                    fnd = self._turned(fnd, nd, p + 1)
                    nd = p + 1
                    taken.append(p)
            # the real refill's low cards lie above the first card it leaves in the waste
            above = w[-1] if w else -1
            lows = self.low_from[above + 1] - self.low_from[nd] if above + 1 < nd else 0
            need = self.fill - k - lows
            ms = [0] if need <= 0 else []
            if not w:
                run = 0
                while nd + run < self.T and _rank(self.talon[nd + run]) <= LOW:
                    run += 1
                ms = list(range(max(0, need), min(run, self.fill - k) + 1))
                if nd + run >= self.T and run not in ms:
                    ms.append(run)  # the talon runs out: the real refill takes what is left
            for m in ms:
                new = list(piles)
                new[i] = tuple(self.talon[p] for p in taken)
                out.append(self._state(new, nd + m, tuple(w), self._turned(fnd, nd, nd + m)))
        return out

    def _leave(self, piles: tuple, i: int, j: int | None, nd: int, waste: tuple, fnd: tuple) -> list:
        """Pile i's top leaves: to an Evens/Odds pile (fnd already updated) or onto pile j."""
        new = list(piles)
        c = piles[i][-1]
        new[i] = piles[i][:-1]
        if j is not None:
            new[j] = piles[j] + (c,)
        out = [self._state(new, nd, waste, fnd)]  # empty here, q's pile may still hold low cards
        if not new[i] and (nd < self.T or waste):
            out += self._refills(new, i, nd, waste, fnd)
        return out

    @staticmethod
    def _tops(piles: tuple) -> dict:
        """Top card -> the piles it tops, one per distinct pile (targets of a build)."""
        tops: dict = {}
        for j, pile in enumerate(piles):
            if pile:
                js = tops.setdefault(pile[-1], [])
                if not js or piles[js[-1]] != pile:  # piles are sorted: equal ones are adjacent
                    js.append(j)
        return tops

    def children(self, st: tuple) -> list:
        piles, nd, waste, fnd = st
        out = []
        stock_empty = nd >= self.T
        talon_empty = stock_empty and not waste
        if not stock_empty:
            c = self.talon[nd]
            if _rank(c) <= LOW:
                out.append((piles, nd + 1, waste, self._turned(fnd, nd, nd + 1)))
            else:
                out.append((piles, nd + 1, waste + (nd,), fnd))
        if not talon_empty and () in piles:
            out += self._refills(list(piles), piles.index(()), nd, waste, fnd)
        if waste:
            after = self._played(fnd, self.talon[waste[-1]])
            if after is not None:
                out.append((piles, nd, waste[:-1], after))
        for i, pile in enumerate(piles):
            if pile:
                after = self._played(fnd, pile[-1])
                if after is not None:
                    out += self._leave(piles, i, None, nd, waste, after)
        if stock_empty:
            empty = [j for j, p in enumerate(piles) if not p][:1] if talon_empty else []
            tops = self._tops(piles)
            none: list = []
            if waste:
                c = self.talon[waste[-1]]
                for j in tops.get(c + 1, none) if c % 13 + 1 < self.ranks else none:
                    new = list(piles)
                    new[j] = piles[j] + (c,)
                    out.append(self._state(new, nd, waste[:-1], fnd))
            for i, pile in enumerate(piles):
                if pile:
                    c = pile[-1]
                    js = tops.get(c + 1, none) if c % 13 + 1 < self.ranks else none
                    for j in js + (empty if len(pile) > 1 else none):
                        if j != i:
                            out += self._leave(piles, i, j, nd, waste, fnd)
            if self.returns:
                out += self._returns(piles, nd, waste, fnd, empty, tops)
        return out

    def _returns(self, piles: tuple, nd: int, waste: tuple, fnd: tuple, empty: list, tops: dict) -> list:
        """pysolfc: a high Evens/Odds top goes back onto the tableau.  (A Two or Three
        going back is answered by nothing: the relation keeps it on its pile.)"""
        out = []
        for k, (a, b) in enumerate(fnd):
            for h in {a, b}:
                if h <= 1:
                    continue
                r = 2 * h if k % 2 == 0 else 2 * h + 1
                c = (k // 2) * 13 + r - 1
                pair = (a, h - 1) if b == h else (h - 1, b)
                after = fnd[:k] + (tuple(sorted(pair)),) + fnd[k + 1:]
                for j in (tops.get(c + 1, []) if r < self.ranks else []) + empty:
                    new = list(piles)
                    new[j] = piles[j] + (c,)
                    out.append(self._state(new, nd, waste, after))
        return out

    def won(self, st: tuple) -> bool:
        piles, nd, waste, _ = st
        return nd >= self.T and not waste and not any(piles)

    # --- search.drive's protocol --------------------------------------------------

    def start(self) -> str | None:
        self._seen = {self.root}
        self._stack = [self.root]
        self.stored_states = 1
        return None

    def run(self, budget: int) -> str | None:
        """Up to budget // COST states (at least one); WON, LOST, MEMORY_LIMIT or None."""
        for _ in range(max(1, budget // COST)):
            if not self._stack:
                return LOST
            st = self._stack.pop()
            self.nodes += 1
            if self.won(st):
                return WON
            for child in self.children(st):
                if child not in self._seen:
                    self._seen.add(child)
                    self._stack.append(child)
            self.stored_states = len(self._seen)
            if self.stored_states > self.max_states:
                return MEMORY_LIMIT
        return None if self._stack else LOST

    def solve(self, max_nodes: int | None = None) -> bool | None:
        """True (relaxed win: proves nothing), False (the deal is lost) or None (limit)."""
        self.start()
        while max_nodes is None or self.nodes < max_nodes:
            got = self.run(1 << 20)
            if got == WON:
                return True
            if got == LOST:
                return False
            if got == MEMORY_LIMIT:
                return None
        return None

    def grow(self) -> bool:
        return False

    def line(self) -> list[Move]:
        return []  # never asked: a relaxed win proves nothing

    def best_cards(self) -> int:
        return 0

    def progress(self):
        return None

    def counters(self) -> dict[str, int]:
        return {}
