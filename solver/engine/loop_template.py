"""The depth-first search every game kernel runs, written once: source text with named slots.

Every kernel (``solver/games/*/kernel.py``) searches the same way: an explicit stack of
state rows, copy-make (a child is its parent's row with one move applied), every entered
state stored in the transposition table and a state already stored skipped.  That is
exact for a reachability question (no depth limit): whatever a stored state leads to is
being or has been searched.  The kernels differ only in what fills the slots of ``Loop``
(how a move is applied, the key, the cards home, the moves of a state, the workspace).

Why source text: numba inlines and caches best what it sees as plain code.  Sharing the
loop through functions passed as arguments was measured and rejected (a jitted function
passed as a plain argument is not cacheable, so every process recompiles; first-class
function types ran slower; issue 25, results/dfs-loop-template.md).  So ``build`` fills
the template with a kernel's slots and gets the very functions that kernel had before.

Why a file: numba caches only functions defined in a real source file (keyed on its path
and mtime), never code made by ``exec``.  ``build`` writes the text to a file named after
a digest of the text, in the package's kernel cache folder (``jit.CACHE_DIR``), and
imports it; its functions are cached in the folder of its build digest (jit.py).  A file
that is there with the same text is used as it is (its mtime, and so numba's cache
entry, stays valid); a new one is written to a temporary file and linked into place, so that two processes
generating at once never see half a file nor change a file the other has compiled.  With
an unwritable cache folder (no numba cache then, see jit.py) the file goes to a private
temporary folder.

The functions made (kernel_search.py has the calling convention): ``search_init``,
``search_run``, ``expand_line``, ``successors`` and, unless ``Loop.keys_of`` is False,
``keys_of``; with ``Loop.ring`` also ``_restore``; with ``Loop.playouts`` the randomized
playouts (``playout_init``, ``playout_run``, ``_playout_restart``; solver/engine/playouts.py),
the kernel writing how a playout picks its next move.

Slots are statements or expressions in the kernel's names; ``$st`` (the state row),
``$m`` (a move), ``$log``, ``$n`` and ``$dolog`` (the move log, its length, whether to
write it), ``$moves`` and ``$start`` (where moves are written), ``$key`` (the key out)
and ``$d`` (a level) stand for what the template puts there.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any, NamedTuple

# The engine modules the generated loops call (``source``): imported here so that the
# build digest of every kernel, which imports this module, covers their code (jit.py).
from . import bestpath, order, tt  # noqa: F401

ENGINE = __name__.rsplit(".", 1)[0]  # the package of the jit, tt, bestpath and order modules


@dataclass(frozen=True)
class Loop:
    """What one kernel puts into the template's slots (module doc)."""

    ws: str  # the names the workspace tuple unpacks into, in order
    ctx: str  # statements unpacking ``ctx`` (what is fixed for a search)
    log_width: int  # columns of a log row
    apply: str  # apply $m to $st, logging from $n if $dolog: the new log length
    gen: str  # write the moves of $st (sorted, best first) into $moves from $start: the new end
    key: str  # statements writing the key of $st into $key
    home: str  # statements setting ``home`` to the cards $st has on the foundations
    won: str = "is_won($st, rules)"  # whether $st is won
    safe: str = ""  # the safe moves of $st played (when rules[R_PRUNE]): the new log length
    locals: str = ""  # scratch made at the start of every function but _restore
    enter: str = ""  # statements after the win test of a new child $st; ``continue`` = do not enter it
    level: str = ""  # statements after level $d's moves start at lnext[$d]
    mask: str = ""  # the DFS stack keeps ``move & mask`` (a narrow dtype): moves made in ``tmp`` first
    ring: bool = False  # rows: a ring plus checkpoints (kernel_search.RingGeometry), else one a level
    packed_best: bool = False  # ``best`` packs four 16-bit moves a word (bestpath.keep_path_packed)
    keys_of: bool = True  # make keys_of (the key needs nothing from the workspace)
    restart: str = ""  # with playouts: statements drawing a new playout's settings but the spread
    pick: str = ""  # with playouts: a playout's next move from $st (d: its depth, cap: the most; -1 = none)
    played: str = ""  # with playouts: statements after a playout made move ``pick``
    playouts: bool = False  # make playout_init and playout_run (solver/engine/playouts.py)


# A line ending in ``#[flag ...]`` is kept only when every flag holds (render: ring or
# plain stack, safe moves, keys_of, mask or nomask, playouts).  A line holding only
# ``$name`` is that slot's statements at that indentation (dropped when empty).
# the first lines of search_init and search_run
SEARCH_HEAD = '''\
$ws = ws
$ctx
table, ttctr, touched = tt
$locals
tmp = np.empty(MAX_MOVES_PER_NODE, dtype=np.int64)  #[mask]
dummy = np.zeros((0, $log_width), dtype=np.int32)
'''

TEMPLATE = '''\
@njit
def search_init(ws, root, ctx, rules, tt):
    """Set up level 0 from root (with its safe moves played).  Returns the status.

    ``best``: the most cards the search has had on the foundations, best[0], and the
    moves (as the searcher's ``path`` takes them) to the first position that had them:
    best[1] moves from best[2] on (bestpath.py).  The root counts.
    """
    $search_head
    st = rows[0]  #[plain]
    st = ring[0]  #[ring]
    for x in range(SLEN):
        st[x] = root[x]
    if rules[R_PRUNE]:  #[safe]
        $safe_init  #[safe]
    for x in range(SLEN):  #[ring]
        ckpt[0, x] = st[x]  #[ring]
    $home_init
    best[0] = home
    best[1] = 0
    ctr[C_NODES] = 1
    ctr[C_DEPTH] = 0
    ctr[C_LO] = 0  #[ring]
    if $won_init:
        ctr[C_STATUS] = ST_WON
        return ST_WON
    $key_init
    tt_insert(table, key, ttctr, touched)
    lnext[0] = 0
    $level_init
    nm = $gen_tmp_init  #[mask]
    for x in range(nm):  #[mask]
        moves[x] = tmp[x] & $mask  #[mask]
    lend[0] = nm  #[mask]
    lend[0] = $gen_init  #[nomask]
    ctr[C_STATUS] = ST_RUNNING
    return ST_RUNNING


@njit
def search_run(ws, ctx, rules, tt, budget):
    """Depth-first search with an explicit stack; resumable.

    Runs until won, exhausted (lost), the table or the stack is full (memory), or
    ``budget`` more nodes were made (paused: call again to continue).  A node is a
    position made by applying a move (and the safe plays after it), whether or not the
    table already knows it.  Every entered state is stored in the table and a state
    already stored is skipped (exact: loop_template's doc).  ``best``: see search_init
    (updated on every entered child that beats it: one comparison per node, a copy of
    the path only on an improvement).
    """
    $search_head
    prune = rules[R_PRUNE] != 0  #[safe]
    maxd = rows.shape[0] - 1  #[plain]
    W = ring.shape[0]  #[ring]
    maxd = min(lend.shape[0] - 1, ckpt.shape[0] * block - 1)  #[ring]
    d = ctr[C_DEPTH]
    lo = ctr[C_LO]  #[ring]
    stop = ctr[C_NODES] + budget
    while True:
        if ctr[C_NODES] >= stop:
            ctr[C_STATUS] = ST_PAUSED
            break
        if lnext[d] >= lend[d]:
            if d == 0:
                ctr[C_STATUS] = ST_LOST
                break
            d -= 1
            if d < lo:  #[ring]
                lo = _restore(ring, ckpt, moves, lnext, d, block, ctx, rules)  #[ring]
            continue
        m = np.int64(moves[lnext[d]])
        lnext[d] += 1
        parent = rows[d]  #[plain]
        child = rows[d + 1]  #[plain]
        parent = ring[d % W]  #[ring]
        child = ring[(d + 1) % W]  # the row of level d + 1 - W is given up  #[ring]
        if d + 2 - W > lo:  #[ring]
            lo = d + 2 - W  #[ring]
        for x in range(SLEN):
            child[x] = parent[x]
        $apply_run
        if prune:  #[safe]
            $safe_run  #[safe]
        $key_run
        r = tt_insert(table, key, ttctr, touched)
        if r < 0:
            lnext[d] -= 1  # retried after the table has grown
            ctr[C_STATUS] = ST_MEMORY
            break
        ctr[C_NODES] += 1
        if r == 0:
            continue
        $home_run
        if home > best[0]:
            $keep(best, home, moves, lnext, d)
        if $won_run:
            d += 1
            ctr[C_STATUS] = ST_WON
            break
        $enter_run
        if d + 1 >= maxd or lend[d] + MAX_MOVES_PER_NODE > moves.shape[0]:
            ctr[C_STATUS] = ST_STACK  # final: the DFS stack is full
            break
        d += 1
        if d % block == 0:  #[ring]
            for x in range(SLEN):  #[ring]
                ckpt[d // block, x] = child[x]  #[ring]
        lnext[d] = lend[d - 1]
        $level_run
        nm = $gen_tmp_run  #[mask]
        for x in range(nm):  #[mask]
            moves[lnext[d] + x] = tmp[x] & $mask  #[mask]
        lend[d] = lnext[d] + nm  #[mask]
        lend[d] = $gen_run  #[nomask]
    ctr[C_DEPTH] = d
    ctr[C_LO] = lo  #[ring]
    return ctr[C_STATUS]


@njit  #[ring]
def _restore(ring, ckpt, moves, lnext, d, block, ctx, rules):  #[ring]
    """Rebuild the ring rows of the levels from d's block start up to d; returns that start.  #[ring]
  #[ring]
    The checkpoint of the block is the row of its first level on the current path (it  #[ring]
    is rewritten whenever the DFS enters that level anew), and the move taken at each  #[ring]
    level x is moves[lnext[x] - 1]; replaying them (with the safe plays after each, as  #[ring]
    the search did) gives the very rows the search had.  #[ring]
    """  #[ring]
    $ctx  #[ring]
    W = ring.shape[0]  #[ring]
    c = (d // block) * block  #[ring]
    first = ring[c % W]  #[ring]
    src = ckpt[d // block]  #[ring]
    for x in range(SLEN):  #[ring]
        first[x] = src[x]  #[ring]
    dummy = np.zeros((0, $log_width), dtype=np.int32)  #[ring]
    for lv in range(c, d):  #[ring]
        parent = ring[lv % W]  #[ring]
        child = ring[(lv + 1) % W]  #[ring]
        for x in range(SLEN):  #[ring]
            child[x] = parent[x]  #[ring]
        $apply_restore  #[ring]
        if rules[R_PRUNE]:  #[ring safe]
            $safe_restore  #[ring safe]
    return c  #[ring]


@njit
def expand_line(root, ctx, path, rules, log):
    """Replay the chosen moves from root, logging every move; returns the count (-1: a
    move failed).  The safe plays the search made after each move are logged as moves of
    their own, so the line is complete for a person (and for the reference engine)."""
    $ctx
    $locals
    st = root.copy()
    n = 0
    if rules[R_PRUNE]:  #[safe]
        n = $safe_log  #[safe]
        if n < 0:  #[safe]
            return -1  #[safe]
    for x in range(path.shape[0]):
        n = $apply_log
        if n < 0:
            return -1
        if rules[R_PRUNE]:  #[safe]
            n = $safe_log  #[safe]
            if n < 0:  #[safe]
                return -1  #[safe]
    return n


@njit
def successors(root, ctx, rules, out):
    """All children of root by one move (no safe plays): rows of out; returns the count."""
    $ctx
    $locals
    moves = np.empty(MAX_MOVES_PER_NODE, dtype=np.int64)
    dummy = np.zeros((0, $log_width), dtype=np.int32)
    n = $gen_succ
    for x in range(n):
        for y in range(SLEN):
            out[x, y] = root[y]
        $apply_succ
    return n


@njit  #[keys]
def keys_of(rows, ctx, rules, out):  #[keys]
    """The packed key of each state row (for tests)."""  #[keys]
    $ctx  #[keys]
    $locals  #[keys]
    for x in range(rows.shape[0]):  #[keys]
        $key_keys  #[keys]


@njit  #[playouts]
def _playout_restart(cur, root, pctr, rng):  #[playouts]
    """Back to the root; a new spread (64, 128, 256 or 512) and the kernel's other  #[playouts]
    settings of a playout (slot ``restart``)."""  #[playouts]
    for x in range(SLEN):  #[playouts]
        cur[x] = root[x]  #[playouts]
    pctr[P_DEPTH] = 0  #[playouts]
    pctr[P_PLAYOUTS] += 1  #[playouts]
    pctr[P_SPREAD] = np.int64(64) << rand_below(rng, 4)  #[playouts]
    $restart  #[playouts]


@njit  #[playouts]
def playout_init(pw, root, ctx, rules):  #[playouts]
    """Start the playouts at root (the generator seeded by the caller in rng[0]); returns  #[playouts]
    ST_WON if root is won, else ST_RUNNING.  The root counts as a node."""  #[playouts]
    cur, path, best, pctr, rng = pw  #[playouts]
    for x in range(PCTR_LEN):  #[playouts]
        pctr[x] = 0  #[playouts]
    _playout_restart(cur, root, pctr, rng)  #[playouts]
    pctr[P_NODES] = 1  #[playouts]
    $home_cur  #[playouts]
    best[0] = home  #[playouts]
    best[1] = 0  #[playouts]
    pctr[P_STATUS] = ST_WON if $won_cur else ST_RUNNING  #[playouts]
    return pctr[P_STATUS]  #[playouts]


@njit  #[playouts]
def playout_run(pw, root, ctx, rules, budget):  #[playouts]
    """Play ``budget`` more nodes (a move, or a restart from the root, is a node): returns  #[playouts]
    ST_WON (path[:P_DEPTH] is the line) or ST_PAUSED.  Each move is the kernel's pick of  #[playouts]
    cur's moves (-1: stuck, or PLAYOUT_DEPTH moves deep: again from the root).  A win is  #[playouts]
    a line of legal moves (replayed like any other); running out proves nothing."""  #[playouts]
    cur, path, best, pctr, rng = pw  #[playouts]
    $ctx  #[playouts]
    moves = np.empty(MAX_MOVES_PER_NODE, dtype=np.int64)  #[playouts]
    dummy = np.zeros((0, $log_width), dtype=np.int32)  #[playouts]
    r = rules.copy()  # the pick may change its own rules (move order, noise)  #[playouts]
    cap = min(PLAYOUT_DEPTH, path.shape[0])  #[playouts]
    stop = pctr[P_NODES] + budget  #[playouts]
    while pctr[P_NODES] < stop:  #[playouts]
        d = pctr[P_DEPTH]  #[playouts]
        pick = $pick_cur  #[playouts]
        pctr[P_NODES] += 1  #[playouts]
        if pick < 0:  # stuck, or deep enough: again from the root  #[playouts]
            _playout_restart(cur, root, pctr, rng)  #[playouts]
            continue  #[playouts]
        $apply_play  #[playouts]
        path[d] = pick  #[playouts]
        pctr[P_DEPTH] = d + 1  #[playouts]
        $played  #[playouts]
        $home_cur  #[playouts]
        if home > best[0]:  #[playouts]
            best[0] = home  #[playouts]
            best[1] = d + 1  #[playouts]
            for x in range(d + 1):  #[playouts]
                best[2 + x] = path[x]  #[playouts]
        if $won_cur:  #[playouts]
            pctr[P_STATUS] = ST_WON  #[playouts]
            return ST_WON  #[playouts]
    pctr[P_STATUS] = ST_PAUSED  #[playouts]
    return ST_PAUSED  #[playouts]
'''

_MARK = re.compile(r"\s*#\[([a-z ]+)\]$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _fill(slot: str, **where: str) -> str:
    """A slot with its $-names replaced."""
    return Template(slot.strip("\n")).substitute(where)


def render(loop: Loop) -> str:
    """The body of the generated module for ``loop`` (no imports): the same for the same
    Loop, whatever the process."""
    flags = {"ring": loop.ring, "plain": not loop.ring, "safe": bool(loop.safe), "keys": loop.keys_of,
             "mask": bool(loop.mask), "nomask": not loop.mask, "playouts": loop.playouts}
    slots = {
        "ws": loop.ws, "ctx": _fill(loop.ctx), "locals": _fill(loop.locals), "log_width": str(loop.log_width),
        "keep": "keep_path_packed" if loop.packed_best else "keep_path",
        "safe_init": _fill(loop.safe, st="st", log="dummy", n="0", dolog="False") if loop.safe else "",
        "safe_run": _fill(loop.safe, st="child", log="dummy", n="0", dolog="False") if loop.safe else "",
        "safe_restore": _fill(loop.safe, st="child", log="dummy", n="0", dolog="False") if loop.safe else "",
        "safe_log": _fill(loop.safe, st="st", log="log", n="n", dolog="True") if loop.safe else "",
        "apply_run": _fill(loop.apply, st="child", m="m", log="dummy", n="0", dolog="False"),
        "apply_restore": _fill(loop.apply, st="child", m="np.int64(moves[lnext[lv] - 1])", log="dummy", n="0",
                               dolog="False"),
        "apply_log": _fill(loop.apply, st="st", m="path[x]", log="log", n="n", dolog="True"),
        "apply_succ": _fill(loop.apply, st="out[x]", m="moves[x]", log="dummy", n="0", dolog="False"),
        "gen_succ": _fill(loop.gen, st="root", moves="moves", start="0"),
        "gen_init": _fill(loop.gen, st="st", moves="moves", start="0"),
        "gen_run": _fill(loop.gen, st="child", moves="moves", start="lend[d - 1]"),
        "gen_tmp_init": _fill(loop.gen, st="st", moves="tmp", start="0"),
        "gen_tmp_run": _fill(loop.gen, st="child", moves="tmp", start="0"),
        "mask": loop.mask,
        "home_cur": _fill(loop.home, st="cur"),
        "pick_cur": _fill(loop.pick, st="cur"),
        "played": _fill(loop.played),
        "restart": _fill(loop.restart),
        "apply_play": _fill(loop.apply, st="cur", m="pick", log="dummy", n="0", dolog="False"),
        "won_cur": _fill(loop.won, st="cur"),
        "key_init": _fill(loop.key, st="st", key="key"),
        "key_run": _fill(loop.key, st="child", key="key"),
        "key_keys": _fill(loop.key, st="rows[x]", key="out[x]"),
        "home_init": _fill(loop.home, st="st"),
        "home_run": _fill(loop.home, st="child"),
        "won_init": _fill(loop.won, st="st"),
        "won_run": _fill(loop.won, st="child"),
        "enter_run": _fill(loop.enter, st="child"),
        "level_init": _fill(loop.level, d="0"),
        "level_run": _fill(loop.level, d="d"),
    }
    slots["search_head"] = "\n".join(_lines(SEARCH_HEAD, flags, slots))
    text = "\n".join(_lines(TEMPLATE, flags, slots)).rstrip() + "\n"
    return re.sub(r"\n{4,}", "\n\n\n", text)


def _lines(template: str, flags: dict[str, bool], slots: dict[str, str]) -> list[str]:
    """The lines of ``template`` kept by ``flags``, with ``slots`` filled in."""
    out: list[str] = []
    for line in template.splitlines():
        mark = _MARK.search(line)
        if mark:
            if not all(flags[f] for f in mark.group(1).split()):
                continue
            line = line[:mark.start()]
        name = line.strip()
        if name.startswith("$") and _NAME.fullmatch(name[1:]):
            indent = line[:len(line) - len(line.lstrip())]
            out.extend(indent + x if x.strip() else "" for x in slots[name[1:]].splitlines())
            continue
        out.append(Template(line).substitute(slots))
    return out


def source(kernel: str, loop: Loop, names: set[str]) -> str:
    """The whole generated module for kernel module ``kernel``: ``render(loop)`` with the
    imports it needs (of ``names``, those the kernel defines, the ones the text reads)."""
    body = render(loop)
    own = set(re.findall(r"^def (\w+)", body, re.M)) | {"np", "njit", "tt_insert", "keep_path", "keep_path_packed",
                                                              "rand_below"}
    used = sorted(set(_NAME.findall(body)) & names - own)
    head = [f'"""The DFS loop of {kernel}, generated by {__name__} from its Loop: edit those, not this."""',
            "", "import numpy as np", "",
            f"from {ENGINE}.jit import njit",
            f"from {ENGINE}.tt import tt_insert",
            f"from {ENGINE}.bestpath import {'keep_path_packed' if loop.packed_best else 'keep_path'}",
            *([f"from {ENGINE}.order import rand_below"] if loop.playouts else []),
            textwrap.fill(f"from {kernel} import ({', '.join(used)})", 100, subsequent_indent="    "), "", "", ""]
    return "\n".join(head) + body


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def folder() -> Path:
    """Where generated loops are written: beside numba's cache (jit.CACHE_DIR), or a
    private temporary folder when that cannot be written."""
    from .jit import CACHE_DIR, CACHE_PROBLEM

    if CACHE_PROBLEM is None:
        return CACHE_DIR / "loops"
    path = tempfile.mkdtemp(prefix="patience-loops-")
    atexit.register(shutil.rmtree, path, True)
    return Path(path)


def write_once(path: Path, text: str) -> None:
    """Make ``path`` hold ``text``, leaving it untouched when it already does: written to
    a temporary file in the same folder, then linked into place (fails if another process
    got there first, which is fine: its text is the same) or, where links are not
    supported, renamed over it."""
    try:
        if path.read_text() == text:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            os.link(tmp, path)
        except FileExistsError:
            if path.read_text() != text:  # a damaged file (its name says what it should hold)
                os.replace(tmp, path)
                tmp = ""
        except OSError:
            os.replace(tmp, path)
            tmp = ""
    finally:
        if tmp:
            os.unlink(tmp)


class Built(NamedTuple):
    """The functions ``build`` made (None for those a Loop's flags leave out) and the
    file they were generated into (where a numba error in a slot points)."""

    search_init: Any
    search_run: Any
    expand_line: Any
    successors: Any
    keys_of: Any
    playout_init: Any
    playout_run: Any
    path: Path


def build(kernel: str, loop: Loop, where: Path | None = None) -> Built:
    """Generate, write (once) and import ``loop`` for kernel module ``kernel`` (called at
    the end of the kernel's own module, whose names defined so far the loop may use)."""
    names = set(vars(sys.modules[kernel]))
    text = source(kernel, loop, names)
    stem = f"{kernel.replace('.', '_')}_loop_{digest(text)}"
    path = (where or folder()) / f"{stem}.py"
    module = sys.modules.get(stem)
    if module is None:
        write_once(path, text)
        spec = importlib.util.spec_from_file_location(stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        spec.loader.exec_module(module)
    return Built(module.search_init, module.search_run, module.expand_line, module.successors,
                 getattr(module, "keys_of", None), getattr(module, "playout_init", None),
                 getattr(module, "playout_run", None), Path(module.__file__))


