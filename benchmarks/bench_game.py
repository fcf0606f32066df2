"""Win-rate and speed benchmark for any game and rule set (run by hand; never a timed test).

Solves a range of seeds with a per-deal time cap, then writes a Markdown report:
verdict counts, win rate with its 95% Wilson interval (unknown counted both ways),
the time distribution, node rates, peak memory and the exact command (paths relative to
the project root).  A run that finds every row done solves nothing and, when the report
exists, leaves it alone and says so (``--rewrite-report`` writes it anyway).  Writing
replaces only the report's generated part: notes outside it are kept (bench_report.py).

Per-deal results are appended as they finish to a JSONL file (default results/runs/,
committed beside the report: a row per seed with verdict, nodes, time, peak memory and
best progress (the most cards the search had on the foundations; older rows lack it),
so a researcher can compare seed by seed, and a run interrupted by the end of a session
resumes on another machine).  Seeds above 5,000 go to one file per 5,000 seeds
(``<name>-seeds5001-10000.jsonl``), so that no file outgrows the 2 MB the repository takes.
``--report-only`` writes the report from whatever prefix
of the seeds is done.  Several processes may work on chunks of one seed range at once
(each appends whole lines to the same file).

    python benchmarks/bench_game.py windmill --rules strict --seeds 1-1000 --cap 60 \\
        --out results/windmill-strict-bench.md
    python benchmarks/bench_game.py klondike --option draw=3 --numbering solvitaire \\
        --seeds 1-1000 --cap 60 --out results/klondike-bench-draw3.md
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import numba

import solver
from solver.games import get_game
from solver.runs.stats import percentile, undecided_after, win_rate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import ROOT, project_args, shown_path, write_report  # noqa: E402

# What others have published for the same game and rules, quoted under the table.
PUBLISHED = {
    "klondike": "Solvitaire (10^6 deals, unknown counted both ways): draw 1 90.480 ± 0.116%, "
                "draw 3 81.945 ± 0.084% (unlimited passes, worry-back allowed).",
    "beleaguered-castle": "Solvitaire (Blake & Gent, 2x10^6 deals, unknown counted both ways): "
                          "68.170 ± 0.099% winnable.",
    "great-wheel": "Nobody has published a Great Wheel win rate; Pretty Good Solitaire guesses "
                   "\"Medium (50%)\". These are the first measured figures.",
    "windmill": "No solver and no win rate for Windmill has ever been published: these are the "
                "first Windmill win rates measured.",
}


def parse_seeds(spec: str) -> list[int]:
    seeds: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        seeds.extend(range(int(a), int(b or a) + 1))
    return seeds


def parse_options(pairs: list[str]) -> dict:
    """``draw=3``, ``worry_back=false`` -> keyword arguments for solver.solve."""
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"bench_game: --option wants KEY=VALUE, not {pair!r}")
        low = value.lower()
        out[key] = (True if low == "true" else False if low == "false"
                    else int(value) if value.lstrip("-").isdigit() else value)
    return out


SHARD_SEEDS = 5000  # rows of seeds above this go to one file per 5,000 seeds (each well under 2 MB)


def shard_of(log: Path, seed: int) -> Path:
    """The file that holds seed's row: ``log`` for seeds up to SHARD_SEEDS, else
    ``<log stem>-seeds<a>-<b>.jsonl`` for the block of SHARD_SEEDS seeds holding it."""
    if seed <= SHARD_SEEDS:
        return log
    k = (seed - 1) // SHARD_SEEDS
    return log.with_name(f"{log.stem}-seeds{k * SHARD_SEEDS + 1}-{(k + 1) * SHARD_SEEDS}.jsonl")


def shards(log: Path) -> list[Path]:
    """``log`` and its seed-block files, lowest seeds first."""
    blocks = sorted(log.parent.glob(f"{log.stem}-seeds*-*.jsonl"),
                    key=lambda p: int(p.stem[len(log.stem) + 6:].split("-")[0]))
    return [log, *blocks]


def load(log: Path) -> dict[int, dict]:
    """Every row of a run (its seed-block files too); a later row of a seed replaces an earlier one."""
    done = {}
    for path in shards(log):
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    done[row["seed"]] = row
    return done


def to_solve(done: dict[int, dict], seeds: list[int], retry_unknown: bool = False) -> list[int]:
    """The seeds a run solves: those without a row (and with retry_unknown those whose row is unknown)."""
    return [s for s in seeds if s not in done or (retry_unknown and done[s]["verdict"] == "unknown")]


def run(game: str, options: dict, numbering: str, seeds: list[int], cap: float, tt_mb: float, log: Path,
        report_only: bool, retry_unknown: bool = False) -> list[dict]:
    done = load(log)
    if retry_unknown:  # solved again (same cap); the new row replaces the old on loading
        for seed in seeds:
            if seed in done and done[seed]["verdict"] == "unknown":
                del done[seed]
    if report_only or not to_solve(done, seeds):  # the finished prefix of the seed range
        rows = []
        for seed in seeds:
            if seed not in done:
                break
            rows.append(done[seed])
        return rows
    # one untimed solve first, so numba's compile or cache load is not charged to a deal
    solver.solve(game, seeds[0], numbering=numbering, max_nodes=1000, tt_mb=64, **options)
    files: dict[Path, object] = {}
    try:
        for seed in seeds:
            if seed in done:
                continue
            r = solver.solve(game, seed, numbering=numbering, timeout=cap, tt_mb=tt_mb, **options)
            row = {"seed": seed, "verdict": r.verdict, "reason": r.reason, "nodes": r.nodes,
                   "stored": r.stored_states, "seconds": r.seconds, "moves": len(r.moves),
                   "moves_found": r.moves_found,
                   "verified": r.verified, "proof": r.proof, "peak_mb": round(_peak_mb()),
                   "best_progress": None if r.best_progress is None else r.best_progress.to_json(),
                   "counters": r.counters}
            done[seed] = row
            path = shard_of(log, seed)
            if path not in files:
                files[path] = path.open("a")
            files[path].write(json.dumps(row) + "\n")
            files[path].flush()
            print(f"seed {seed}: {r.verdict} {r.reason or ''} {r.nodes} nodes {r.seconds:.3f} s",
                  file=sys.stderr, flush=True)
    finally:
        for out in files.values():
            out.close()
    return [done[s] for s in seeds]


def _peak_mb() -> float:
    """This process's peak resident memory so far (Linux ru_maxrss is in KB): recorded
    with each deal, it is the solving process's running peak, not that deal's own."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_of(rows: list[dict]) -> tuple[float | None, int]:
    """The highest solving-process peak recorded in rows, and how many rows record one."""
    peaks = [r["peak_mb"] for r in rows if r.get("peak_mb") is not None]
    return (max(peaks) if peaks else None), len(peaks)


def progress_of_unknown(rows: list[dict]) -> str:
    """min / median / max of the unknown deals' best progress (rows without it skipped)."""
    unknown = [r for r in rows if r["verdict"] == "unknown"]
    have = [r["best_progress"] for r in unknown if r.get("best_progress")]
    if not have:
        return "-" if not unknown else f"not recorded (0 of {len(unknown)} unknown deals carry it)"
    cards = sorted(p["cards"] for p in have)
    of = max(p["of"] for p in have)
    text = f"{cards[0]} / {statistics.median(cards):g} / {cards[-1]} of {of} cards"
    if len(have) < len(unknown):
        text += f" ({len(have)} of {len(unknown)} unknown deals carry it)"
    return text


def _ms(values: list[float], f) -> str:
    return f"{1000 * f(values):.1f}" if values else "-"


def report(title: str, rows: list[dict], cap: float) -> str:
    """The results table of one game and rule set."""
    if not rows:
        return f"### {title}\n\nNo deal finished yet.\n"
    won = sum(r["verdict"] == "won" for r in rows)
    lost = sum(r["verdict"] == "lost" for r in rows)
    unknown = len(rows) - won - lost
    rate = win_rate(won, lost, unknown)
    times = [r["seconds"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    stored = sum(r["stored"] for r in rows)
    total = sum(times)
    reasons: dict[str, int] = {}
    for r in rows:
        if r["verdict"] == "unknown":
            reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    unknown_seeds = [r["seed"] for r in rows if r["verdict"] == "unknown"]
    won_times = [r["seconds"] for r in rows if r["verdict"] == "won"]
    lost_times = [r["seconds"] for r in rows if r["verdict"] == "lost"]
    # how the unknowns fall with the cap: a slow fall means a longer cap buys little
    limits = [t for t in (0.1, 1, 3, 10, 30) if t < cap] + [cap]
    undecided = undecided_after(won_times + lost_times, unknown, limits)
    lines = [
        f"### {title} (seeds {rows[0]['seed']}..{rows[-1]['seed']})",
        "",
        "| measure | value |",
        "|---|---|",
        f"| deals | {len(rows)} |",
        f"| won / lost / unknown | {won} / {lost} / {unknown} ({100 * unknown / len(rows):.2f}% unknown"
        + (f": {', '.join(f'{n} {k}' for k, n in sorted(reasons.items()))}" if reasons else "") + ") |",
        f"| win rate (95% Wilson, unknown counted both ways) | {100 * won / len(rows):.2f}% of all deals, "
        f"interval [{100 * rate.low:.2f}%, {100 * rate.high:.2f}%] |",
    ]
    proofs: dict[str, int] = {}
    for r in rows:
        if r["verdict"] == "lost":
            proofs[r.get("proof") or "search"] = proofs.get(r.get("proof") or "search", 0) + 1
    if set(proofs) - {"search"}:  # how the losses were proved (search.drive, api.solve)
        lines.append("| lost, by proof | " + ", ".join(f"{k} {n}" for k, n in sorted(proofs.items())) + " |")
    counted = [r["counters"] for r in rows if r.get("counters")]
    if counted:
        tot = {k: sum(c.get(k, 0) for c in counted) for k in counted[0]}
        lines.append("| reduction counters, all deals (" + ", ".join(tot) + ") | "
                     + " / ".join(f"{v:,}" for v in tot.values()) + " |")
    lines += [
        f"| every won line replayed by the reference engine | "
        f"{all(r['verified'] for r in rows if r['verdict'] == 'won')} |",
        f"| time per deal: median / mean / p99 / max | {_ms(times, statistics.median)} / "
        f"{_ms(times, statistics.mean)} / {1000 * percentile(times, 99):.0f} / {1000 * max(times):.0f} ms |",
        f"| median time of won / lost deals | {_ms(won_times, statistics.median)} / "
        f"{_ms(lost_times, statistics.median)} ms |",
        f"| nodes (positions generated) per second | {nodes / total:,.0f} |" if total else "| nodes per second | - |",
        f"| distinct positions stored per second | {stored / total:,.0f} |" if total else "| stored per second | - |",
        f"| most positions stored for one deal | {max(r['stored'] for r in rows):,} |",
        f"| cap per deal | {cap:g} s |",
        f"| undecided had the cap been {', '.join(f'{t:g}' for t in limits)} s | "
        + " / ".join(f"{n} ({100 * n / len(rows):.1f}%)" for n in undecided) + " |",
        f"| unknown deals' best progress (most cards on the foundations): min / median / max | "
        f"{progress_of_unknown(rows)} |",
        f"| unknown seeds | {', '.join(map(str, unknown_seeds)) or 'none'} |",
    ]
    cleaned = [r for r in rows if r["verdict"] == "won" and r.get("moves_found")]
    if cleaned:  # rows from before lines.without_cycles lack moves_found
        found = [r["moves_found"] for r in cleaned]
        shown = [r["moves"] for r in cleaned]
        lines.append(f"| winning lines: median moves as found / after loops are cut; lines shortened | "
                     f"{statistics.median(found):g} / {statistics.median(shown):g}; "
                     f"{sum(a > b for a, b in zip(found, shown))} of {len(cleaned)} |")
    lines.append("")
    return "\n".join(lines)


def report_head(title: str, command: str) -> list[str]:
    """The first lines of every benchmark report: title, command, machine, date."""
    return [f"# {title}", "", f"Command: `{command}`  ",
            f"Machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
            f"numba {numba.__version__}, 2 shared vCPUs (timings are noisy; node counts are not).  ",
            f"Date: {time.strftime('%Y-%m-%d')}  "]


def command_line(argv: list[str]) -> str:
    """The command as quoted in the report (without --note and its text, which go with the
    report's notes), its paths relative to the project root."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--note":
            skip = True
            continue
        if a.startswith("--note="):
            continue
        out.append(a if a and " " not in a else json.dumps(a))
    return "python benchmarks/bench_game.py " + " ".join(project_args(out))


def main(argv: list[str] | None = None, extra: Callable[[], str] | None = None) -> Path | None:
    """Solve the seeds without a row, then write the report; return its path, or None when
    none was written.  An existing report is left alone when nothing was solved, unless
    ``--rewrite-report``; writing keeps its notes (bench_report).  ``extra`` makes more text
    for the generated part (called only when the report is written)."""
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--rules", default=None, help="rule preset (games with presets)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a rule option for solver.solve, e.g. draw=3 (repeatable)")
    ap.add_argument("--numbering", default="pysolfc")
    ap.add_argument("--seeds", default="1-1000")
    ap.add_argument("--cap", type=float, default=60.0, help="seconds per deal")
    ap.add_argument("--tt-mb", type=float, default=4096)
    ap.add_argument("--runs", default=str(ROOT / "results" / "runs"), help="per-deal JSONL directory")
    ap.add_argument("--report-only", action="store_true",
                    help="write the report from the finished prefix of the seed range, solving nothing")
    ap.add_argument("--retry-unknown", action="store_true",
                    help="solve again the seeds whose recorded verdict is unknown (e.g. time limits hit while "
                         "other jobs loaded the machine); the report says how many were retried")
    ap.add_argument("--peak-mb", type=float, default=None,
                    help="with --report-only: the solving process's peak RSS (VmHWM), measured while it ran")
    ap.add_argument("--out", default=None, help="Markdown report (default results/<game>[-<rules>]-bench.md)")
    ap.add_argument("--rewrite-report", action="store_true",
                    help="write the report even when every row is already done and the report exists "
                         "(its generated part only: notes outside it are kept)")
    ap.add_argument("--note", default=None,
                    help="a line for the report's notes (e.g. what else loaded the machine); kept on rewrites")
    ap.add_argument("--label", default=None,
                    help="appended to the rows file's name: a run of its own (e.g. some seeds again with new "
                         "search code), resumable like any other")
    args = ap.parse_args(argv)

    g = get_game(args.game)
    options = parse_options(args.option)
    if args.rules is not None:
        options["rules"] = args.rules
    rules = g.make_rules(**options)
    seeds = parse_seeds(args.seeds)
    tag = "-".join([g.name] + [str(v) for v in options.values()])
    Path(args.runs).mkdir(parents=True, exist_ok=True)
    label = f"-{args.label}" if args.label else ""
    log = Path(args.runs) / f"{tag}-{args.numbering}-cap{args.cap:g}{label}.jsonl"
    out = Path(args.out) if args.out else ROOT / "results" / f"{tag}-bench.md"
    before = load(log)
    solving = [] if args.report_only else to_solve(before, seeds, args.retry_unknown)
    if not solving and out.exists() and not args.rewrite_report:
        held = sum(s in before for s in seeds)
        print(f"bench_game: {shown_path(str(log), Path.cwd(), False)} already holds {held} rows of the "
              f"{len(seeds)} seeds asked; nothing solved, {shown_path(str(out), Path.cwd(), False)} left as it was "
              f"(--rewrite-report rewrites its generated part, --out writes elsewhere)", file=sys.stderr)
        return None
    retried = sorted(s for s in seeds if s in before and before[s]["verdict"] == "unknown") \
        if args.retry_unknown and not args.report_only else []
    rows = run(g.name, options, args.numbering, seeds, args.cap, args.tt_mb, log, args.report_only,
               args.retry_unknown)
    recorded, n_recorded = peak_of(rows)
    if args.peak_mb:
        memory = f"{args.peak_mb:,.0f} MB (given with --peak-mb, measured while the seeds were solved)"
    elif recorded is not None:
        memory = (f"{recorded:,.0f} MB, the highest peak RSS of the solving processes, recorded with each deal "
                  f"({n_recorded} of {len(rows)} deals carry the record)")
    else:
        memory = f"{_peak_mb():,.0f} MB (this process; no solving run recorded its peak)"

    rules_text = json.dumps(rules.to_json()) if rules.to_json() else "(no options)"
    title = f"{g.name}, rules {rules_text}, {args.numbering} numbering"
    head = report_head(f"Benchmark: {g.name}" + (f" ({args.rules})" if args.rules else ""), command_line(argv)) + [
        f"Peak resident memory: {memory}; transposition tables and search stacks included.",
        "",
    ]
    if g.name in PUBLISHED:
        head += [f"Published for comparison: {PUBLISHED[g.name]}", ""]
    if retried:
        now = {r["seed"]: r["verdict"] for r in rows}
        outcomes = ", ".join(f"{seed} {now.get(seed, '?')}" for seed in retried)
        head += [f"Retried with the same cap after the first pass ({len(retried)} seeds unknown then; "
                 f"now: {outcomes}).", ""]
    generated = "\n".join(head + [report(title, rows, args.cap)] + ([extra()] if extra else []))
    write_report(out, generated, "benchmarks/bench_game.py", f"Note: {args.note}" if args.note else "")
    print(shown_path(str(out), Path.cwd(), False))
    return out


if __name__ == "__main__":
    main()
