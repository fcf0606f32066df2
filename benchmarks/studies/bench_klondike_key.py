"""Klondike class key against the exact key, and the step-2 prunes against the class key
alone: one plain search per deal (no relaxed second search), kernel ``class`` (class key,
step-2 prunes off: ``prunes=0``) or ``prunes`` (class key and every step-2 prune), one
process, one deal at a time,
each deal capped at ``--cap`` CPU seconds of this process (the kernel runs in this thread,
in slices of 100,000 nodes; a CPU cap, not a wall-clock one, because the machine is shared).

    nice -n 10 python benchmarks/studies/bench_klondike_key.py --draw 3 --seeds 1-200 --cap 20 --kernel class
    nice -n 10 python benchmarks/studies/bench_klondike_key.py --draw 3 --seeds 1-200 --cap 20 --kernel prunes
    python benchmarks/studies/bench_klondike_key.py --report   # summary of the rows written so far
    python benchmarks/studies/bench_klondike_key.py --report --prunes   # class key vs class key + prunes
    nice -n 10 python benchmarks/studies/bench_klondike_key.py --ablate --draw 3 --seeds 31-31  # each prune off in turn

Rows (one JSON line per deal: seed, verdict, nodes, stored, CPU seconds) go to
results/runs/klondike-class-key-d<draw>-<kernel>-cpucap<cap>.jsonl (kernel ``prunes``:
results/runs/klondike-prunes-d<draw>-cpucap<cap>.jsonl); a deal already there is not
solved again.  Wins are replayed through the reference engine (``verified``).
The exact-key kernel (``--kernel exact``) was removed after step 3 (issue 23) was checked
against it; its rows (klondike-class-key-d<draw>-exact-cpucap20.jsonl, made at commit
e34e429) stay, and ``--report`` still reads them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from solver.games.klondike import kernel as K, reference  # noqa: E402
from solver.games.klondike.deals import klondike_deal  # noqa: E402
from solver.games.klondike.position import KlondikeRules  # noqa: E402
from solver.games.klondike.searcher import KlondikeSearch  # noqa: E402
from solver.engine.search import MEMORY_LIMIT  # noqa: E402
from solver.engine.resources import tables  # noqa: E402

RUNS = ROOT / "results" / "runs"
TT_MB = 1024
SLICE = 100_000


def rows_path(draw: int, kernel: str, cap: float) -> Path:
    if kernel == "prunes":
        return RUNS / f"klondike-prunes-d{draw}-cpucap{cap:g}.jsonl"
    return RUNS / f"klondike-class-key-d{draw}-{kernel}-cpucap{cap:g}.jsonl"


def seeds_of(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def solve_capped(search: KlondikeSearch, deadline: float) -> str:
    """won, lost, or unknown (CPU deadline passed, or the table cannot grow)."""
    verdict = search.start()
    while verdict is None:
        if time.process_time() >= deadline:
            return "unknown"
        verdict = search.run(SLICE)
        if verdict == MEMORY_LIMIT:
            if not search.grow():
                return "unknown"
            verdict = None
    return verdict


def run(draw: int, seeds: list[int], cap: float, kernel: str) -> None:
    path = rows_path(draw, kernel, cap)
    done = set()
    if path.exists():
        done = {json.loads(line)["seed"] for line in path.read_text().splitlines() if line.strip()}
    rules = KlondikeRules(draw=draw)
    with path.open("a") as out:
        for seed in seeds:
            if seed in done:
                continue
            position = klondike_deal(seed, "solvitaire", draw)
            with tables(TT_MB):
                search = KlondikeSearch(position, rules, prunes=K.P_ALL if kernel == "prunes" else 0)
            t0 = time.process_time()
            verdict = solve_capped(search, t0 + cap)
            seconds = time.process_time() - t0
            verified = False
            if verdict == "won":
                reference.verify_win(position, rules, search.line())
                verified = True
            row = {"seed": seed, "verdict": verdict, "nodes": search.nodes,
                   "stored": search.stored_states, "seconds": round(seconds, 3), "verified": verified}
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)


def ablate(draw: int, seeds: list[int], cap: float) -> None:
    """Per seed: nodes / stored with no step-2 prune, all of them, and each one switched off.
    Rows to results/runs/klondike-prunes-ablation-d<draw>.jsonl; a markdown table to stdout."""
    configs = {"none": 0, "all": K.P_ALL, "KINGMAC off": K.P_ALL & ~K.P_KINGMAC, "T5 off": K.P_ALL & ~K.P_LAST_SAFE,
               "T5b off": K.P_ALL & ~K.P_NO_TURN, "NODP off": K.P_ALL & ~K.P_NO_SAFE_TO_PILE}
    rules = KlondikeRules(draw=draw)
    print(f"| draw {draw} seed | " + " | ".join(configs) + " |")
    print("|---" * (len(configs) + 1) + "|")
    with (RUNS / f"klondike-prunes-ablation-d{draw}.jsonl").open("a") as out:
        for seed in seeds:
            cells = []
            for name, prunes in configs.items():
                position = klondike_deal(seed, "solvitaire", draw)
                with tables(TT_MB):
                    search = KlondikeSearch(position, rules, prunes=prunes)
                t0 = time.process_time()
                verdict = solve_capped(search, t0 + cap)
                row = {"seed": seed, "prunes": name, "verdict": verdict, "nodes": search.nodes,
                       "stored": search.stored_states, "seconds": round(time.process_time() - t0, 3)}
                out.write(json.dumps(row) + "\n")
                cells.append(f"{verdict} {search.nodes:,} / {search.stored_states:,}")
            print(f"| {seed} | " + " | ".join(cells) + " |", flush=True)


def load(path: Path) -> dict[int, dict]:
    return {r["seed"]: r for r in map(json.loads, path.read_text().splitlines())} if path.exists() else {}


def report(cap: float, prunes: bool = False) -> None:
    names = ("class key, no step-2 prunes", "class key + prunes") if prunes else ("exact key (old)", "class key (new)")
    for draw in (1, 3):
        old, new = (load(rows_path(draw, "class", cap)), load(rows_path(draw, "prunes", cap))) if prunes else \
            (load(rows_path(draw, "exact", cap)), load(rows_path(draw, "class", cap)))
        common = sorted(set(old) & set(new))
        if not common:
            continue
        print(f"\n### Draw {draw}, seeds {common[0]}..{common[-1]} ({len(common)} deals), cap {cap:g} CPU s\n")
        print("| kernel | won / lost / unknown | nodes | stored | CPU s | decided by both: nodes / stored / CPU s |")
        print("|---|---|---|---|---|---|")
        both = [s for s in common if old[s]["verdict"] in ("won", "lost") and new[s]["verdict"] in ("won", "lost")]
        for name, rows in zip(names, (old, new)):
            v = [rows[s]["verdict"] for s in common]
            tot = lambda f, ss=common: sum(rows[s][f] for s in ss)  # noqa: E731
            print(f"| {name} | {v.count('won')} / {v.count('lost')} / {len(v) - v.count('won') - v.count('lost')} "
                  f"| {tot('nodes'):,} | {tot('stored'):,} | {tot('seconds'):.1f} "
                  f"| {tot('nodes', both):,} / {tot('stored', both):,} / {tot('seconds', both):.1f} |")
        differ = [s for s in both if old[s]["verdict"] != new[s]["verdict"]]
        only_new = [s for s in common if new[s]["verdict"] in ("won", "lost") and s not in both]
        only_old = [s for s in common if old[s]["verdict"] in ("won", "lost") and s not in both]
        print(f"\nVerdicts differing where both decided: {differ or 'none'}; decided only by the new kernel: "
              f"{only_new or 'none'}; only by the old: {only_old or 'none'}.")
        landed = load(RUNS / f"klondike-{draw}-solvitaire-cap60.jsonl")  # the committed rows (solve, 60 s)
        known = lambda r: r["verdict"] in ("won", "lost")  # noqa: E731
        here = [s for s in common if s in landed]
        clash = [s for s in here if known(landed[s]) and known(new[s]) and landed[s]["verdict"] != new[s]["verdict"]]
        gained = [s for s in here if not known(landed[s]) and known(new[s])]
        lost_ = [s for s in here if known(landed[s]) and not known(new[s])]
        print(f"Against the committed rows (klondike-{draw}-solvitaire-cap60.jsonl: the landed kernel with its "
              f"relaxed search, 60 s): verdicts differing: {clash or 'none'}; unknown there, decided here: "
              f"{gained or 'none'}; decided there, unknown here: {lost_ or 'none'}.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--draw", type=int, default=3)
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--cap", type=float, default=20.0, help="seconds per deal")
    ap.add_argument("--kernel", choices=("class", "prunes"), default="prunes")
    ap.add_argument("--report", action="store_true", help="print the summary tables of the rows so far")
    ap.add_argument("--prunes", action="store_true", help="report: class key vs class key + step-2 prunes")
    ap.add_argument("--ablate", action="store_true", help="each step-2 prune switched off in turn (nodes / stored)")
    args = ap.parse_args()
    if args.ablate:
        ablate(args.draw, seeds_of(args.seeds), args.cap)
    elif args.report:
        report(args.cap, args.prunes)
    else:
        run(args.draw, seeds_of(args.seeds), args.cap, args.kernel)


if __name__ == "__main__":
    main()
