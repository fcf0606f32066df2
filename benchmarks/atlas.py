"""The atlas (issue 34): Solvitaire seeds 1..100,000 of each configuration, one verdict a
deal, beside the published rates.  Run by hand, a slice a session (never a timed test).

Each configuration (CONFIGS) keeps its rows in ``results/atlas/<name>/``: one gzip file
per 5,000 seeds (``seeds-00001-05000.jsonl.gz``), written when the block is complete and
committed; the block in progress is a plain ``.jsonl`` beside them (not committed: a run
stopped on one machine and resumed on another solves that block's deals again, minutes
of work).  Every file's first line is a header naming the game, the rules (as JSON), the
numbering and the cap, so that anyone can re-solve a sampled seed and compare.  A row:
``{"seed", "verdict", "reason", "proof", "nodes", "seconds", "cards"}`` (``cards``: the
best progress of an unknown deal).  The unknown deals are solved again with a longer cap
(``retry``); their rows go to ``retry-cap<N>.jsonl`` and replace the first verdict.

    python benchmarks/atlas.py run klondike-draw1 --seeds 1-100000 --cap 10
    python benchmarks/atlas.py retry klondike-draw1 --cap 120
    python benchmarks/atlas.py import klondike-draw1 results/runs/klondike-1-solvitaire-cap10-scale.jsonl
    python benchmarks/atlas.py report --out results/atlas.md

The first Klondike 20,000 of each worry-back configuration came from the earlier scale runs
(``import``: the rows of ``bench_game.py --label scale`` and its 120 s retries).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

import solver
from solver.runs.stats import win_rate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_game import parse_seeds  # noqa: E402
from bench_report import ROOT, project_args, write_report  # noqa: E402

ATLAS = ROOT / "results" / "atlas"
BLOCK = 5000

# name -> (game, rule options, numbering, Solvitaire's published rate and its +- (percent))
CONFIGS = {
    "klondike-draw1": ("klondike", {"draw": 1}, "solvitaire", (90.480, 0.116)),
    "klondike-draw3": ("klondike", {"draw": 3}, "solvitaire", (81.945, 0.084)),
    "klondike-draw1-no-worry-back": ("klondike", {"draw": 1, "worry_back": False}, "solvitaire", (90.204, None)),
    "klondike-draw3-no-worry-back": ("klondike", {"draw": 3, "worry_back": False}, "solvitaire", (81.524, None)),
    "beleaguered-castle": ("beleaguered-castle", {}, "solvitaire", (68.170, 0.099)),
}
# (config that implies, config implied): a deal won in the first is won in the second
IMPLIES = [("klondike-draw3", "klondike-draw1"), ("klondike-draw3-no-worry-back", "klondike-draw3"),
           ("klondike-draw1-no-worry-back", "klondike-draw1"),
           ("klondike-draw3-no-worry-back", "klondike-draw1-no-worry-back")]


def folder(name: str) -> Path:
    return ATLAS / name


def block_of(seed: int) -> tuple[int, int]:
    a = (seed - 1) // BLOCK * BLOCK + 1
    return a, a + BLOCK - 1


def block_path(name: str, a: int, b: int, done: bool) -> Path:
    return folder(name) / f"seeds-{a:05d}-{b:05d}.jsonl{'.gz' if done else ''}"


def header(name: str, cap: float) -> dict:
    game, options, numbering, _ = CONFIGS[name]
    rules = solver.make_deal(game, 1, numbering=numbering, **options)[1].to_json()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    return {"atlas": name, "game": game, "rules": rules, "numbering": numbering, "cap_seconds": cap,
            "commit": commit or None}


def _rows_of(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    out = []
    for line in lines[1:]:  # the first line is the header
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut by a kill: that deal is solved again
            pass
    return out


def load(name: str, retries: bool = True) -> dict[int, dict]:
    """Every row of a configuration (a retry's row replaces the first verdict)."""
    rows: dict[int, dict] = {}
    base = folder(name)
    if not base.exists():
        return rows
    for path in sorted(base.glob("seeds-*.jsonl*")):
        for row in _rows_of(path):
            rows[row["seed"]] = row
    if retries:
        for path in sorted(base.glob("retry-cap*.jsonl"), key=lambda p: float(p.stem.removeprefix("retry-cap"))):
            for row in _rows_of(path):
                rows[row["seed"]] = row
    return rows


def row_of(seed: int, r) -> dict:
    best = r.best_progress.cards if r.best_progress is not None and r.verdict == "unknown" else None
    return {"seed": seed, "verdict": r.verdict, "reason": r.reason, "proof": r.proof, "nodes": r.nodes,
            "seconds": float(f"{r.seconds:.4g}"), "cards": best}


def _append(path: Path, head: dict, rows: list[dict]) -> None:
    new = not path.exists()
    with open(path, "a") as f:
        if new:
            f.write(json.dumps(head) + "\n")
        for row in rows:
            f.write(json.dumps(row) + "\n")


def _close_block(name: str, a: int, b: int) -> None:
    """A complete block's plain file made its gzip file (rows in seed order)."""
    raw = block_path(name, a, b, done=False)
    lines = raw.read_text().splitlines()
    rows = {r["seed"]: r for r in _rows_of(raw)}
    if set(rows) != set(range(a, b + 1)):
        return
    text = lines[0] + "\n" + "".join(json.dumps(rows[s]) + "\n" for s in range(a, b + 1))
    gz = block_path(name, a, b, done=True)
    tmp = gz.with_suffix(".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as f:
        f.write(text.encode())
    tmp.replace(gz)
    raw.unlink()


def run(name: str, seeds: list[int], cap: float, tt_mb: float) -> None:
    game, options, numbering, _ = CONFIGS[name]
    folder(name).mkdir(parents=True, exist_ok=True)
    done = load(name, retries=False)
    todo = [s for s in seeds if s not in done]
    if not todo:
        return
    head = header(name, cap)
    solver.solve(game, 1, numbering=numbering, max_nodes=1000, tt_mb=64, **options)  # compile before timing
    for seed in todo:
        r = solver.solve(game, seed, numbering=numbering, timeout=cap, tt_mb=tt_mb, **options)
        a, b = block_of(seed)
        _append(block_path(name, a, b, done=False), head, [row_of(seed, r)])
        print(f"{name} {seed}: {r.verdict} {r.reason or ''} {r.seconds:.3f} s", file=sys.stderr, flush=True)
        if seed == b or seed == todo[-1]:
            if block_path(name, a, b, done=False).exists():
                _close_block(name, a, b)


def retry(name: str, cap: float, tt_mb: float) -> None:
    game, options, numbering, _ = CONFIGS[name]
    path = folder(name) / f"retry-cap{cap:g}.jsonl"
    done = {r["seed"] for r in _rows_of(path)} if path.exists() else set()
    unknown = [s for s, r in sorted(load(name).items()) if r["verdict"] == "unknown" and s not in done]
    head = header(name, cap)
    for seed in unknown:
        r = solver.solve(game, seed, numbering=numbering, timeout=cap, tt_mb=tt_mb, **options)
        _append(path, head, [row_of(seed, r)])
        print(f"{name} retry {seed}: {r.verdict} {r.seconds:.1f} s", file=sys.stderr, flush=True)


def import_rows(name: str, paths: list[Path], cap: float, retry_cap: float | None) -> None:
    """Rows of bench_game.py runs (its JSONL rows) into the atlas, as blocks or a retry file."""
    folder(name).mkdir(parents=True, exist_ok=True)
    rows: dict[int, dict] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                best = (r.get("best_progress") or {}).get("cards") if r["verdict"] == "unknown" else None
                rows[r["seed"]] = {"seed": r["seed"], "verdict": r["verdict"], "reason": r["reason"],
                                   "proof": r.get("proof"), "nodes": r["nodes"],
                                   "seconds": float(f"{r['seconds']:.4g}"), "cards": best}
    if retry_cap is not None:
        path = folder(name) / f"retry-cap{retry_cap:g}.jsonl"
        done = {r["seed"] for r in _rows_of(path)} if path.exists() else set()
        _append(path, header(name, retry_cap), [rows[s] for s in sorted(rows) if s not in done])
        return
    have = load(name, retries=False)
    head = header(name, cap)
    head["imported_from"] = [Path(p).name for p in paths]
    for a in range(1, max(rows) + 1, BLOCK):
        b = a + BLOCK - 1
        new = [rows[s] for s in range(a, b + 1) if s in rows and s not in have]
        if new:
            _append(block_path(name, a, b, done=False), head, new)
            _close_block(name, a, b)


def _overlap(low: float, high: float, published: float, pm: float | None) -> str:
    """Whether our interval meets Solvitaire's (its ± is an interval that counts its own
    undecided deals both ways, as ours does, not a standard error)."""
    if pm is None:
        return "yes" if low <= published / 100 <= high else "no (their figure outside ours)"
    a, b = (published - pm) / 100, (published + pm) / 100
    return "yes" if low <= b and a <= high else f"no ({'below' if high < a else 'above'})"


def report(out: Path) -> None:
    loaded = {name: load(name) for name in CONFIGS}
    lines = ["# The atlas: Solvitaire seeds 1..100,000 (issue 34)", "",
             "Command: `python benchmarks/atlas.py " + " ".join(project_args(sys.argv[1:])) + "` (after the `run` "
             "and `retry` commands in benchmarks/atlas.py's docstring); rows in `results/atlas/<configuration>/`.  ",
             f"Date: {time.strftime('%Y-%m-%d')}.  Interval: 95% Wilson, unknown deals counted as lost for the low "
             "end and as won for the high end (Solvitaire's convention).", "",
             "| configuration | deals (seeds) | won / lost / unknown | won % | interval | Solvitaire | "
             "intervals meet |", "|---|---|---|---|---|---|---|"]
    for name, rows in loaded.items():
        if not rows:
            lines.append(f"| {name} | 0 | - | - | - | {CONFIGS[name][3][0]}% | - |")
            continue
        won = sum(r["verdict"] == "won" for r in rows.values())
        lost = sum(r["verdict"] == "lost" for r in rows.values())
        unknown = len(rows) - won - lost
        rate = win_rate(won, lost, unknown)
        pub, pm = CONFIGS[name][3]
        seeds = sorted(rows)
        span = f"{seeds[0]}..{seeds[-1]}" + ("" if seeds[-1] - seeds[0] + 1 == len(seeds) else ", with gaps")
        lines.append(f"| {name} | {len(rows):,} ({span}) | {won:,} / {lost:,} / {unknown:,} | "
                     f"{100 * won / len(rows):.3f}% | [{100 * rate.low:.3f}%, {100 * rate.high:.3f}%] | "
                     f"{pub}%{f' ± {pm}%' if pm is not None else ''} | "
                     f"{_overlap(rate.low, rate.high, pub, pm)} |")
    lines += ["", "Checks deal by deal (seeds in both configurations):", ""]
    for a, b in IMPLIES:
        common = set(loaded[a]) & set(loaded[b])
        if not common:
            continue
        bad = sorted(s for s in common if loaded[a][s]["verdict"] == "won" and loaded[b][s]["verdict"] == "lost")
        open_ = sum(loaded[a][s]["verdict"] == "won" and loaded[b][s]["verdict"] == "unknown" for s in common)
        lines.append(f"- {a} won implies {b} won: {len(common):,} common seeds, {len(bad)} violations"
                     + (f" (seeds {', '.join(map(str, bad[:20]))})" if bad else "")
                     + (f", {open_} where {b} is unknown" if open_ else ""))
    unknowns = {n: sorted(s for s, r in rows.items() if r["verdict"] == "unknown") for n, rows in loaded.items()}
    lines += ["", "Unknown deals left (seed: best cards home):", ""]
    for name, seeds in unknowns.items():
        if loaded[name]:
            shown = ", ".join(f"{s}: {loaded[name][s].get('cards')}" for s in seeds[:40])
            lines.append(f"- {name}: {len(seeds)}" + (f" ({shown}{', ...' if len(seeds) > 40 else ''})" if seeds
                                                         else ""))
    text = "\n".join(lines) + "\n"
    print(text)
    write_report(out, text, "benchmarks/atlas.py")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("name", choices=list(CONFIGS))
    r.add_argument("--seeds", default="1-100000")
    r.add_argument("--cap", type=float, default=10.0)
    r.add_argument("--tt-mb", type=float, default=1024)
    t = sub.add_parser("retry")
    t.add_argument("name", choices=list(CONFIGS))
    t.add_argument("--cap", type=float, default=120.0)
    t.add_argument("--tt-mb", type=float, default=4096)
    i = sub.add_parser("import")
    i.add_argument("name", choices=list(CONFIGS))
    i.add_argument("rows", nargs="+", type=Path)
    i.add_argument("--cap", type=float, default=10.0)
    i.add_argument("--retry-cap", type=float, default=None, help="the rows are a retry at this cap")
    q = sub.add_parser("report")
    q.add_argument("--out", type=Path, default=ROOT / "results" / "atlas.md")
    args = ap.parse_args()
    if args.command == "run":
        run(args.name, parse_seeds(args.seeds), args.cap, args.tt_mb)
    elif args.command == "retry":
        retry(args.name, args.cap, args.tt_mb)
    elif args.command == "import":
        import_rows(args.name, args.rows, args.cap, args.retry_cap)
    else:
        report(args.out)


if __name__ == "__main__":
    main()
