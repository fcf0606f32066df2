"""Where a Klondike search node's time goes, and nodes per CPU second (run by hand).

    # per-step cost on real DFS rows (sampled from searches of Solvitaire seeds 1..40)
    PATIENCE_SERVER=off python benchmarks/studies/bench_klondike_node_cost.py parts --draw 3
    # nodes per CPU second over seeds (one process, CPU cap per deal): one JSON line
    PATIENCE_SERVER=off python benchmarks/studies/bench_klondike_node_cost.py rate --draw 3 --seeds 1-60 --cap 3
    # a step's cost inside the real search: the search with that step done twice
    PATIENCE_SERVER=off python benchmarks/studies/bench_klondike_node_cost.py insitu --draw 3 --step key

``parts`` times each step of search_run alone in a jitted loop over the sampled rows:
the row copy, gen_moves (and its sections: foundation plays, talon reach, reveals, talon
cards, worry-back, sort, each cumulative up to that point), pack_key, apply_move (with
the copy) and apply_move + play_safe per child.  A search node costs a copy, an apply, the
safe plays, a key and a table probe; gen_moves runs only for entered nodes.  ``rate``
compares two checkouts when run from each with PYTHONPATH set to it (the kernel cache is
keyed on the sources, so each gets its own compiled kernel); equal ``nodes`` show the
searches were the same.  ``insitu`` runs ``rate`` with the search loop rebuilt from the
kernel's loop template with one step (the key, the safe plays or move generation) done
twice, its second result the same as the first; the rise in time per node is what the step
costs where it runs, calls, cache misses and all (``--step none``: the plain loop, for
comparing in the same process kind).  Figures: results/klondike-cheap-nodes.md.
"""

from __future__ import annotations

import argparse
import inspect
import json
import time

import numba
import numpy as np

from solver.core.numbering import SOLVITAIRE
from solver.engine import resources
from solver.engine.search import MEMORY_LIMIT
from solver.games.klondike import kernel as K
from solver.games.klondike.deals import klondike_deal
from solver.games.klondike.position import KlondikeRules
from solver.games.klondike.searcher import KlondikeSearch

def sample_rows(draw: int, seeds=range(1, 41), pauses: int = 50, budget: int = 2000):
    """Rows on the DFS path at pauses of real searches (up to 8 a pause): rows, talons, lengths, rules."""
    rows, talons, lengths = [], [], []
    with resources.tables(512):
        for seed in seeds:
            s = KlondikeSearch(klondike_deal(seed, SOLVITAIRE, draw), KlondikeRules(draw=draw))
            status = s.start()
            for _ in range(pauses):
                if status is not None:
                    break
                status = s.run(budget)
                d = s.depth
                for lv in range(1, d + 1, max(1, d // 8)):
                    rows.append(s.ws.states[lv].copy())
                    talons.append(s.ctx[0])
                    lengths.append(s.ctx[1])
    return np.array(rows), np.array(talons), np.array(lengths), s.r


@numba.njit
def _copy(rows, reps):
    out = np.empty(rows.shape[1], np.int32)
    acc = 0
    for _ in range(reps):
        for i in range(rows.shape[0]):
            for x in range(rows.shape[1]):
                out[x] = rows[i, x]
            acc += out[5]
    return acc


@numba.njit
def _key(rows, rules, reps):
    key = np.zeros(2, np.uint64)
    codes = np.zeros(8, np.uint64)
    acc = np.uint64(0)
    for _ in range(reps):
        for i in range(rows.shape[0]):
            K.pack_key(rows[i], rules, key, codes)
            acc ^= key[0]
    return acc


@numba.njit
def _children(rows, talons, lengths, rules, reps, safe):
    moves = np.zeros(K.MAX_MOVES_PER_NODE, np.int64)
    child = np.empty(rows.shape[1], np.int32)
    no_log = np.zeros((0, 5), np.int32)
    count = 0
    for i in range(rows.shape[0]):
        n = K.gen_moves(rows[i], talons[i], lengths[i], rules, moves, 0)
        for _ in range(reps):
            for j in range(n):
                for x in range(rows.shape[1]):
                    child[x] = rows[i, x]
                K.apply_move(child, moves[j], talons[i], lengths[i], rules, no_log, 0, False)
                if safe:
                    K.play_safe(child, talons[i], lengths[i], rules, no_log, 0, False)
                count += 1
    return count


SECTIONS = ["    # talon cards reachable as the waste top", "    # 2. reveals", "    # 3. talon cards",
            "    # 4. worry-back", "    sort_by_score(moves, n0, n)"]


def _gen_upto():
    """gen_moves_class with an ``upto`` argument returning after that many sections (6 = all)."""
    src = inspect.getsource(K.gen_moves_class.py_func).replace(
        "def gen_moves_class(st, talon, ntalon, rules, moves, n0):",
        "def gen_upto(st, talon, ntalon, rules, moves, n0, upto):")
    for k, mark in enumerate(SECTIONS, 1):
        assert mark in src, mark
        src = src.replace(mark, f"    if upto == {k}:\n        return n\n{mark}", 1)
    names = dict(vars(K))
    names["njit"] = numba.njit
    exec(src, names)
    gen_upto = names["gen_upto"]

    @numba.njit
    def run(rows, talons, lengths, rules, reps, upto):
        moves = np.zeros(K.MAX_MOVES_PER_NODE, np.int64)
        acc = 0
        for _ in range(reps):
            for i in range(rows.shape[0]):
                acc += gen_upto(rows[i], talons[i], lengths[i], rules, moves, 0, upto)
        return acc
    return run


def best_of(f, *args, tries: int = 3) -> float:
    f(*args)
    best = float("inf")
    for _ in range(tries):
        t = time.perf_counter()
        f(*args)
        best = min(best, time.perf_counter() - t)
    return best


def parts(draw: int) -> None:
    rows, talons, lengths, rules = sample_rows(draw)
    n, reps = len(rows), 20
    kids = _children(rows, talons, lengths, rules, 1, False)
    ns = lambda seconds, count: f"{seconds / count * 1e9:.0f} ns"
    print(f"draw {draw}: {n} DFS rows, {kids / n:.1f} children a row, row of {rows.shape[1]} int32")
    print("copy a row", ns(best_of(_copy, rows, reps), n * reps))
    print("pack_key", ns(best_of(_key, rows, rules, reps), n * reps))
    print("apply_move (with the copy), a child", ns(best_of(_children, rows, talons, lengths, rules, 5, False), kids * 5))
    print("apply_move + play_safe, a child", ns(best_of(_children, rows, talons, lengths, rules, 5, True), kids * 5))
    run = _gen_upto()
    names = ["foundation plays", "+ talon reach", "+ reveals", "+ talon cards", "+ worry-back", "+ sort (all)"]
    for upto, name in enumerate(names, 1):
        print(f"gen_moves up to {name}", ns(best_of(run, rows, talons, lengths, rules, reps, upto), n * reps))


def rate(draw: int, seeds: list[int], cap: float, label: str | None = None) -> None:
    nodes = 0
    cpu = 0.0
    per = {}
    with resources.tables(1024):
        KlondikeSearch(klondike_deal(1, SOLVITAIRE, draw), KlondikeRules(draw=draw))  # compile outside the clock
        for seed in seeds:
            s = KlondikeSearch(klondike_deal(seed, SOLVITAIRE, draw), KlondikeRules(draw=draw))
            t = time.process_time()
            status = s.start()
            while status is None and time.process_time() - t < cap:
                status = s.run(200_000)
                if status == MEMORY_LIMIT and s.grow():  # the table doubles, as the driver does
                    status = None
            dt = time.process_time() - t
            nodes += s.nodes
            cpu += dt
            per[seed] = [s.nodes, status or "unknown", round(dt, 4)]
    print(json.dumps({**({"doubled": label} if label else {}), "draw": draw, "nodes": nodes, "cpu_s": round(cpu, 3), "nodes_per_cpu_s": round(nodes / cpu), "ns_per_node": round(cpu / nodes * 1e9),
                      "per_seed": per}))


def doubled(step: str):
    """K.LOOP with ``step`` done twice (``none``: as it is)."""
    import dataclasses
    loop = K.LOOP
    twice = {
        "none": {},
        "key": {"key": loop.key + "\n" + loop.key},
        "safe": {"safe": "play_safe($st, talon, ntalon, rules, $log, play_safe($st, talon, ntalon, rules, $log, $n, "
                         "$dolog), $dolog)"},
        "gen": {"gen": "gen_moves($st, talon, ntalon, rules, $moves, $start) * 0 + "
                       "gen_moves($st, talon, ntalon, rules, $moves, $start)"},
    }[step]
    return dataclasses.replace(loop, **twice)


def insitu(draw: int, step: str, seeds: list[int], cap: float) -> None:
    from solver.engine.loop_template import build
    K.search_init, K.search_run = build(K.__name__, doubled(step))[:2]
    rate(draw, seeds, cap, label=step)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["parts", "rate", "insitu"])
    ap.add_argument("--step", choices=["none", "key", "safe", "gen"], default="none", help="insitu: the step done twice")
    ap.add_argument("--draw", type=int, default=3)
    ap.add_argument("--seeds", default="1-60")
    ap.add_argument("--cap", type=float, default=3.0, help="CPU seconds per deal (rate)")
    args = ap.parse_args()
    a, _, b = args.seeds.partition("-")
    seeds = list(range(int(a), int(b or a) + 1))
    if args.mode == "parts":
        parts(args.draw)
    elif args.mode == "rate":
        rate(args.draw, seeds, args.cap)
    else:
        insitu(args.draw, args.step, seeds, args.cap)


if __name__ == "__main__":
    main()
