"""Klondike's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

import numpy as np

from ...engine.kernel_search import (KernelSearch, Workspace, perft as kernel_perft, successor_rows, table_for, warm_once,
                             workspace_for)
from ...core.numbering import PYSOLFC
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import KlondikePosition, KlondikeRules

MAX_DEPTH = 60_000  # DFS levels (x K.SLEN * 4 bytes of state each)
MOVE_CAP = 1 << 22  # moves stacked along the current path (x 8 bytes)

# Peak bytes of one workspace (zero-filled lazily by the OS, so this is the worst case).
WORKSPACE_MB = ((MAX_DEPTH + 1) * (K.SLEN * 4 + 3 * 8) + MOVE_CAP * 8 + (MAX_DEPTH + 3) * 8) / 2**20


def _workspace() -> Workspace:
    return Workspace(states=np.zeros((MAX_DEPTH + 1, K.SLEN), dtype=np.int32),
                     moves=np.zeros(MOVE_CAP, dtype=np.int64),
                     lstart=np.zeros(MAX_DEPTH + 1, dtype=np.int64), lend=np.zeros(MAX_DEPTH + 1, dtype=np.int64),
                     lnext=np.zeros(MAX_DEPTH + 1, dtype=np.int64), ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     best=np.zeros(MAX_DEPTH + 3, dtype=np.int64),  # best progress (kernel.search_init)
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64), codes=np.zeros(8, dtype=np.uint64))


def warm_up() -> None:
    """Compile (or load from the cache) this game's kernel once (kernel_search.warm_once)."""
    from .deals import klondike_deal

    warm_once(K, "Klondike", lambda: KlondikeSearch(klondike_deal(1, PYSOLFC, 3), KlondikeRules(draw=3),
                                                    warm=False, slot="warm"))


class KlondikeSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol.  Its moves are
    macro moves; ``line()`` gives their atomic moves, safe plays included."""

    K = K
    LOG_SHAPE = (64, 1152, 5)
    EXACT_LOG = False
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: KlondikePosition, rules: KlondikeRules, *, prune: bool = True,
                 warm: bool = True, slot: str = "main", prunes: int = K.P_ALL):
        """``slot`` names the workspace and table: concurrent searches need their own.
        ``prunes``: the class kernel's step-2 prunes on (K.P_*), for measuring."""
        if warm:
            warm_up()
        self.position = position
        self.rules = rules
        root, talon, ntalon = encode(position, rules)
        self.setup(root, (talon, ntalon), rules_array(rules, position.ranks, len(position.tableau), prune, prunes),
                   f"klondike/{slot}", _workspace, slot)

    def setup(self, root, ctx, rules, ws_name, ws_factory, slot) -> None:
        """As KernelSearch.setup, but the class key (kernel doc) takes 2 words a table
        entry, not K.KEY_WORDS: its table is 2 words wide, and the kernel gets the first
        two words of the workspace's key array (the same arrays otherwise)."""
        self.root, self.ctx, self.r = root, ctx, rules
        ws = workspace_for(ws_name, ws_factory)
        width = K.CLASS_KEY_WORDS if rules[K.R_CLASS] else K.KEY_WORDS
        if width != K.KEY_WORDS:
            named = {name: array for name, array in vars(ws).items() if name != "arrays"}
            named["key"] = ws.key[:width]
            ws = Workspace(**named)
        self.ws = ws
        self.tt = table_for(width, slot)


def _kernel_args(position: KlondikePosition, rules: KlondikeRules, prune: bool, prunes: int = K.P_ALL):
    root, talon, ntalon = encode(position, rules)
    return root, (talon, ntalon), rules_array(rules, position.ranks, len(position.tableau), prune, prunes)


def successors(position: KlondikePosition, rules: KlondikeRules, prune: bool = False,
               prunes: int = K.P_ALL) -> list[KlondikePosition]:
    """The kernel's children of a position (for differential tests)."""
    root, ctx, r = _kernel_args(position, rules, prune, prunes)
    return [decode(row, *ctx, len(position.tableau), position.ranks) for row in successor_rows(K, root, ctx, r)]


def perft(position: KlondikePosition, rules: KlondikeRules, depth: int) -> int:
    return kernel_perft(K, *_kernel_args(position, rules, False), depth)
