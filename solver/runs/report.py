"""Reports on a results database: a Markdown table and PNG plots (matplotlib, Agg).

For every configuration (game, rules, numbering, limits) in the database:

- a table row: the seeds, won / lost / unknown, the win rate with its 95% Wilson
  interval counting unknown deals both ways (solver.runs.stats.win_rate), the
  distributions (median, mean, p90, p99, max) of solve times and node counts, and
  of the unknown deals' best progress (the most cards the search had on the
  foundations: min / median / max, with a histogram line under the table);
- ``config-ID-winrate.png``: the win rate as seeds accumulate (in seed order), with
  its interval band: how far the estimate has converged;
- ``config-ID-times.png``: the distribution of solve times on a log scale, stacked by
  verdict.

The plots are drawn on matplotlib Figure objects (no pyplot state), so reports can be
made from any thread and without a display.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..core.outputs import atomic_open, check_output, check_output_folder, write_text
from ..core.result import LOST, UNKNOWN, WON, describe_rules
from ..core.seeds import SeedSpec
from .stats import Distribution, WinRate, distribution, win_rate
from .store import Config, Row, Store

MAX_POINTS = 400  # points on a convergence curve (enough for a smooth line)
COLOURS = {WON: "#2e7d32", LOST: "#c62828", UNKNOWN: "#9e9e9e"}


@dataclass
class ProgressSummary:
    """Best progress of the unknown deals of a configuration: the most cards each
    search had on the foundations, of ``of`` (the deals' card count)."""

    of: int
    cards: list[int]  # sorted, one per unknown deal with a record
    missing: int = 0  # unknown deals stored before best progress was recorded

    @property
    def low(self) -> int:
        return self.cards[0]

    @property
    def median(self) -> float:
        return statistics.median(self.cards)

    @property
    def high(self) -> int:
        return self.cards[-1]

    def width(self) -> int:
        """Histogram bucket width in cards: 10 for two packs, 5 for one."""
        return 10 if self.of > 60 else 5

    def histogram(self) -> list[tuple[int, int, int]]:
        """(first card count, last, deals) per bucket, from the lowest deal's bucket to the highest's."""
        w = self.width()
        counts = Counter(c // w for c in self.cards)
        return [(b * w, min(b * w + w - 1, self.of), counts[b]) for b in range(self.low // w, self.high // w + 1)]


def progress_summary(rows: list[Row]) -> ProgressSummary | None:
    """The unknown deals' best progress, None if there are no unknown deals with a record."""
    unknown = [r for r in rows if r.verdict == UNKNOWN]
    have = [r for r in unknown if r.best_cards is not None]
    if not have:
        return None
    of = max((r.best_of for r in have if r.best_of is not None), default=0)  # one deck size per configuration
    return ProgressSummary(of, sorted(r.best_cards for r in have), len(unknown) - len(have))


def progress_text(p: ProgressSummary | None) -> str:
    """``min / median / max of N`` (or ``-``)."""
    if p is None:
        return "-"
    return f"{p.low} / {p.median:g} / {p.high} of {p.of}"


def progress_line(p: ProgressSummary) -> str:
    """One line: the distribution and its histogram."""
    text = (f"unknown deals, best progress (cards of {p.of}): min {p.low} / median {p.median:g} / max {p.high} "
            f"({len(p.cards)} deals")
    if p.missing:
        text += f"; {p.missing} stored without a record"
    buckets = ", ".join(f"{a}-{b}: {n}" for a, b, n in p.histogram())
    return text + f"); histogram {buckets}"


@dataclass
class Summary:
    config: Config
    seeds: str
    rate: WinRate
    reasons: dict[str, int]
    seconds: Distribution
    nodes: Distribution
    progress: ProgressSummary | None = field(default=None)


def summarize(config: Config, rows: list[Row]) -> Summary:
    counts = Counter(r.verdict for r in rows)
    reasons = Counter(r.reason for r in rows if r.reason)
    seeds = SeedSpec((r.seed, r.seed) for r in rows).text if rows else "-"
    return Summary(
        config, seeds, win_rate(counts[WON], counts[LOST], counts[UNKNOWN]), dict(sorted(reasons.items())),
        distribution([r.seconds for r in rows]), distribution([float(r.nodes) for r in rows]),
        progress_summary(rows),
    )


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.2f}%"


def _num(x: float, seconds: bool) -> str:
    if math.isnan(x):
        return "-"
    if seconds:
        return f"{x:.3g}"
    return f"{x:,.0f}"


def _dist(d: Distribution, seconds: bool) -> str:
    return " / ".join(_num(v, seconds) for v in (d.median, d.mean, d.p90, d.p99, d.max))


def rate_text(rate: WinRate) -> str:
    """The win rate in a few columns: with unknown deals only the interval, since the
    point estimate over the decided deals alone would flatter (31 won, 9 unknown is not
    "100%")."""
    if rate.unknown:
        return f"[{_pct(rate.low)}, {_pct(rate.high)}]"
    return f"{_pct(rate.point)} [{_pct(rate.low)}, {_pct(rate.high)}]"


def limits_text(c: Config) -> str:
    parts = []
    if c.max_nodes is not None:
        parts.append(f"max_nodes {c.max_nodes:,}")
    if c.timeout is not None:
        parts.append(f"timeout {c.timeout:g} s")
    if c.tt_mb:  # the table sizes its deals ran with (a resource, not part of the configuration)
        parts.append(f"tt {c.tt_text()} MB")
    return ", ".join(parts)


def markdown_table(summaries: list[Summary]) -> str:
    head = ["id", "game", "numbering", "rules", "limits", "seeds", "deals", "won", "lost", "unknown",
            "win rate [95% interval]", "time s: median / mean / p90 / p99 / max",
            "nodes: median / mean / p90 / p99 / max", "unknown: best cards min / median / max"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for s in summaries:
        c, r = s.config, s.rate
        unknown = str(r.unknown)
        if s.reasons:
            unknown += " (" + ", ".join(f"{k} {v}" for k, v in s.reasons.items()) + ")"
        cells = [str(c.id), c.game, c.numbering, describe_rules(c.rules),
                 limits_text(c), s.seeds, str(r.n), str(r.won), str(r.lost), unknown, rate_text(r),
                 _dist(s.seconds, True), _dist(s.nodes, False), progress_text(s.progress)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Win rate: won / (won + lost); the 95% Wilson interval counts unknown deals as lost for its "
                 "lower end and as won for its upper end.  Percentiles are nearest-rank.  Best cards: the most "
                 "cards the search of an unknown deal had on the foundations.")
    progress = [f"- #{s.config.id}: {progress_line(s.progress)}" for s in summaries if s.progress is not None]
    if progress:
        lines += ["", "Best progress of the unknown deals:", ""] + progress
    return "\n".join(lines)


def _headline(r: WinRate) -> str:
    if not r.unknown:
        return f"win rate: {rate_text(r)}  (95% Wilson interval)"
    return (f"win rate: between {_pct(r.low)} and {_pct(r.high)}  (95% Wilson interval, unknown deals counted as lost "
            f"for the low end and as won for the high end; {_pct(r.won / r.n)} of the deals are proven won)")


def summary_text(s: Summary, note: str = "") -> str:
    """A configuration's results as a few lines of text (what ``patience batch`` ends with)."""
    r = s.rate
    unknown = f"unknown {r.unknown}"
    if s.reasons:
        unknown += " (" + ", ".join(f"{k} {v}" for k, v in s.reasons.items()) + ")"
    lines = [s.config.describe(), f"seeds {s.seeds}: {r.n} deals{note}", f"won {r.won}   lost {r.lost}   {unknown}",
             _headline(r)]
    for name, d, fmt in (("time (s)", s.seconds, "{:.4g}"), ("nodes", s.nodes, "{:,.0f}")):
        lines.append(f"{name:9s} median {fmt.format(d.median)}   mean {fmt.format(d.mean)}   "
                     f"p90 {fmt.format(d.p90)}   p99 {fmt.format(d.p99)}   max {fmt.format(d.max)}")
    if s.progress is not None:
        lines.append(progress_line(s.progress))
    return "\n".join(lines)


# --------------------------------------------------------------------------- plots


def convergence(rows: list[Row]) -> tuple[list[int], list[float], list[float], list[float]]:
    """(deals so far, point, low, high) in seed order, at up to MAX_POINTS places."""
    n = len(rows)
    if n == 0:
        return [], [], [], []
    at = sorted({max(1, round(n * i / MAX_POINTS)) for i in range(1, MAX_POINTS + 1)} if n > MAX_POINTS
                else range(1, n + 1))
    xs, point, low, high = [], [], [], []
    counts = {WON: 0, LOST: 0, UNKNOWN: 0}
    k = 0
    for target in at:
        while k < target:
            counts[rows[k].verdict] += 1
            k += 1
        r = win_rate(counts[WON], counts[LOST], counts[UNKNOWN])
        xs.append(target)
        point.append(100 * r.point)
        low.append(100 * r.low)
        high.append(100 * r.high)
    return xs, point, low, high


def _figure():
    import matplotlib

    matplotlib.use("Agg")  # no display needed; a no-op if already Agg
    from matplotlib.figure import Figure

    return Figure(figsize=(8, 4.5), dpi=100, layout="constrained")


def plot_convergence(config: Config, rows: list[Row], path: Path) -> Path:
    """The win rate's interval as deals are added in seed order (x: the seed number
    reached), with the final figure and the limits written on the plot."""
    xs, point, low, high = convergence(rows)
    seeds = [rows[x - 1].seed for x in xs]
    fig = _figure()
    ax = fig.add_subplot()
    ax.fill_between(seeds, low, high, color="#90caf9", alpha=0.6, label="95% Wilson interval (unknown both ways)")
    ax.plot(seeds, point, color="#0d47a1", lw=1.5, label="won / decided deals")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # seeds are whole numbers
    ax.set_xlabel("seed (deals added in seed order)")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 104)  # a rate of 100% drawn above the frame, not on it
    ax.set_yticks(range(0, 101, 20))
    if seeds:
        ax.set_xlim(seeds[0], max(seeds[-1], seeds[0] + 1))
        final = win_rate(*(sum(r.verdict == v for r in rows) for v in (WON, LOST, UNKNOWN)))
        ax.annotate(f"{len(rows)} deals: {rate_text(final)}", xy=(seeds[-1], 100 * final.low), xytext=(-8, -18),
                    textcoords="offset points", ha="right", fontsize="small")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize="small")
    ax.set_title(f"#{config.id} {config.describe()}", fontsize="small")
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png")
    return path


def plot_times(config: Config, rows: list[Row], path: Path) -> Path:
    fig = _figure()
    ax = fig.add_subplot()
    floor = 1e-6
    times = {v: [max(r.seconds, floor) for r in rows if r.verdict == v] for v in (WON, LOST, UNKNOWN)}
    every = [t for ts in times.values() for t in ts]
    if every:
        lo, hi = math.log10(min(every)), math.log10(max(every))
        if hi - lo < 1:
            lo, hi = lo - 0.5, hi + 0.5
        bins = [10 ** (lo + (hi - lo) * i / 40) for i in range(41)]
        present = [v for v in (WON, LOST, UNKNOWN) if times[v]]
        ax.hist([times[v] for v in present], bins=bins, stacked=True, color=[COLOURS[v] for v in present],
                label=[f"{v} ({len(times[v])})" for v in present])
        ax.legend(fontsize="small")
    if config.timeout is not None:
        ax.axvline(config.timeout, color="#555", ls="--", lw=1)
        ax.annotate(f"cap {config.timeout:g} s", xy=(config.timeout, 1), xycoords=("data", "axes fraction"),
                    xytext=(-4, -12), textcoords="offset points", ha="right", fontsize="small")
    ax.set_xscale("log")
    ax.set_xlabel("solve time (s, log scale)")
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count: no 0.5 deals on a small plot
    ax.set_ylabel("deals")
    ax.grid(alpha=0.3)
    ax.set_title(f"#{config.id} {config.describe()}", fontsize="small")
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png")
    return path


def report_files(store: Store, out: Path, plots: bool = True) -> list[Path]:
    """The files ``write_report`` writes into ``out``, in order (report.md last)."""
    out = Path(out)
    files = []
    if plots:
        for config in store.configs():
            files += [out / f"config-{config.id}-winrate.png", out / f"config-{config.id}-times.png"]
    return files + [out / "report.md"]


def write_report(store: Store, out: Path, plots: bool = True) -> tuple[str, list[Path]]:
    """The Markdown table of every configuration, and the plots written into ``out``.

    ``out``/report.md gets the table followed by links to the plots.  Every file is
    checked before the first is written (none may be the database or another SQLite
    database: solver.core.outputs.check_output) and each is written atomically.
    """
    out = Path(out)
    check_output_folder(out, [store.path])
    for path in report_files(store, out, plots):
        if path.exists():
            check_output(path, [store.path])
    summaries, files = [], []
    out.mkdir(parents=True, exist_ok=True)
    for config in store.configs():
        rows = store.rows(config.id)
        if not rows:
            continue
        summaries.append(summarize(config, rows))
        if plots:
            files.append(plot_convergence(config, rows, out / f"config-{config.id}-winrate.png"))
            files.append(plot_times(config, rows, out / f"config-{config.id}-times.png"))
    table = markdown_table(summaries) if summaries else "(no deals stored yet)"
    md = ["# patience-solver results", "", f"Database: `{store.path}`", "", table, ""]
    md += [f"![{f.stem}]({f.name})" for f in files]
    write_text(out / "report.md", "\n".join(md) + "\n")
    files.append(out / "report.md")
    return table, files
