"""The ``patience`` command: parse, call the library, print.  Nothing else lives here.

Exit codes: 0 done (whatever the verdict), 2 bad input (one line on stderr), 3 a
kernel line failed replay (a bug, reported loudly), 130 interrupted; ``patience server
status`` exits 1 when no resident solver runs (as ``systemctl status`` does).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sqlite3
import sys
import threading
from typing import Any

import click

from .. import api
from . import server
from ..games import game_names, get_game, variants
from ..games.variants import VARIANTS, flag, from_pysolfc_id, option_help, options_of
from ..core.dealfile import AnotherGamesDealFile
from ..core.errors import OptionError
from ..core.lines import steps
from ..core.moves import Move
from ..core.numbering import PYSOLFC
from ..core.wholes import parse_whole
from ..core.outputs import OutputError, check_output, check_output_folder, output_file, write_text
from ..core.result import SolveResult, VerificationError, describe_rules
from ..engine.resources import DEFAULT_TT_MB


class PatienceError(click.UsageError):
    """Bad input: reported as one line, exit 2."""


def _seed(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return parse_whole(text)  # the game says which numbers are its deals
    except ValueError as err:
        raise PatienceError(f"invalid seed: {err}") from None


class _Integer(click.ParamType):
    """An integer as a person types it: an optional minus sign and ASCII digits
    (click's INT would take ``1_0``, ``+5`` and other scripts' digits, core/wholes.py)."""

    name = "integer"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value)
        try:
            return -parse_whole(text[1:]) if text.startswith("-") else parse_whole(text)
        except ValueError as err:
            self.fail(str(err), param, ctx)


INTEGER = _Integer()


def flag_of(key: str) -> str:
    """The flag that gives the library's option ``key``: a rule option's from the table
    (variants.OPTIONS), else the key spelled as a flag (tt_mb: --tt-mb)."""
    return next((o.flag for o in variants.OPTIONS if o.name == key), "--" + key.replace("_", "-"))


def said(err: Exception) -> str:
    """A library error's message as the command line says it: the first line, with
    any option it names (errors.OptionError) named by its flag."""
    text = err.spelled(flag_of) if isinstance(err, OptionError) else str(err)
    if isinstance(err, AnotherGamesDealFile):
        text += f": try 'patience solve {err.game} --deal {err.path}'"
    return text.splitlines()[0] if text else repr(err)


def _pysolfc_game(game: str, options: dict) -> tuple[str, dict]:
    """GAME and rule options, with a PySolFC game id as GAME made our game and preset
    (variants.from_pysolfc_id)."""
    try:
        return from_pysolfc_id(game, options)
    except ValueError as err:
        raise PatienceError(said(err)) from None


def _applicable(game: str, options: dict) -> None:
    """Refuse, naming the flag, a rule option that the game does not have."""
    try:
        g = get_game(game)
    except ValueError as err:
        raise PatienceError(str(err)) from None
    known = options_of(g.name)
    for key in options:
        if key not in known:
            has = ", ".join(flag(k) for k in known) or "no rule options"
            raise PatienceError(f"{flag(key)} does not apply to {g.name} (its options: {has})")


def _lower(_ctx, _param, value):
    return None if value is None else value.strip().lower()


def _flag(o) -> Any:
    """The click option of a rule option of the table: its value None when not given,
    so that only the options the user gave reach the game (which says which it lacks)."""
    if o.type is bool:  # a switch that sets the opposite of the default (--no-worry-back)
        return click.option(o.flag, o.name, flag_value=not o.default, default=None, help=option_help(o.name))
    kind = str if o.words else INTEGER if o.type is int else o.type  # text with words ("unlimited") is the game's
    return click.option(o.flag, o.name, type=kind, default=None, metavar=o.metavar, help=option_help(o.name))


def rule_options(f):
    """Give a command GAME's rule options: --numbering and a flag for every option of
    the table (variants.OPTIONS, none written here).  The command receives ``game``
    (a PySolFC game id made our game and preset), ``numbering`` and ``options``: the
    rule options given, each checked to be one of the game's."""

    @functools.wraps(f)
    def command(*args: Any, game: str, **kwargs: Any) -> Any:
        given = {o.name: kwargs.pop(o.name) for o in table}
        game, options = _pysolfc_game(game, {k: v for k, v in given.items() if v is not None})
        _applicable(game, options)
        return f(*args, game=game, options=options, **kwargs)

    table = variants.OPTIONS  # as it is when the command is made
    for o in reversed(table):
        command = _flag(o)(command)
    return click.option("--numbering", default=None, callback=_lower,
                        help="Deal numbering: pysolfc (PySolFC game numbers, the default) or solvitaire.")(command)


def _check_output(path, inputs, folder: bool = False, stdout: bool = True) -> None:
    """Refuse, before any work, an output that would overwrite an input or a database."""
    try:
        if folder:
            check_output_folder(path, inputs)
        else:
            check_output(path, inputs, stdout=stdout)
    except OutputError as err:
        raise PatienceError(str(err)) from None


def _db_file(db_path):
    """The database a command uses: --db, else the default (an empty --db is refused)."""
    from ..runs.store import default_db_path

    if db_path is None:
        return default_db_path()
    if not str(db_path).strip():
        raise PatienceError("--db: an empty file name (leave --db out for the default database)")
    return db_path


def _deal(game, seed, numbering, deal_file, options):
    if deal_file is not None and numbering is not None:
        raise PatienceError("--numbering applies to seeds, not to a --deal file")
    try:
        return api.make_deal(game, _seed(seed), numbering=numbering or PYSOLFC, deal=deal_file, **options)
    except (ValueError, OSError) as err:
        raise PatienceError(said(err)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="patience-solver")
def main() -> None:
    """Decide whether patience deals can be won, show how, measure win rates."""


@main.command()
@click.argument("game")
@click.argument("seed", required=False)
@click.option("--deal", "deal_file", metavar="FILE", help="Solve the position in a JSON deal file instead of a seed.")
@rule_options
@click.option("--max-nodes", type=INTEGER, help="Stop with 'unknown: node-limit' after this many nodes.")
@click.option("--timeout", type=float, metavar="SECONDS", help="Stop with 'unknown: time-limit' after this long.")
@click.option("--tt-mb", type=float, default=DEFAULT_TT_MB, show_default=True, help="Transposition table size (MB).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--show", is_flag=True, help="Print the board after every step of the line (a run of draws is one step).")
@click.option("--html", "html_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Also write a replay page: one HTML file that steps through the line.")
@click.option("--line", "line", type=click.Choice(api.LINE_MODES), default="short", show_default=True,
              help="short: rewrite the winning line without detours (up to 2 s more); fast: the line as found.")
def solve(game, seed, deal_file, numbering, options, max_nodes, timeout, tt_mb, as_json, show, html_file, line):
    """Solve one deal: GAME and a SEED (deal number), or --deal FILE ('-': standard input).

    GAME: klondike, beleaguered-castle, windmill or great-wheel, an alias, or the PySolFC
    game id of one, which picks its preset (129: klondike --rules vegas; the list:
    patience games)."""
    if show and as_json:
        raise PatienceError("--show prints boards for a person; it cannot go with --json")
    if html_file is not None:  # before a search that may be long
        _check_output(html_file, [deal_file], stdout=False)  # '-' is a file here
    g, rules, position = _deal(game, seed, numbering, deal_file, options)  # the one deal of this solve
    numbering = numbering or PYSOLFC
    live = LiveLine(g.total_cards(position)) if sys.stderr.isatty() else None
    if timeout is None and max_nodes is None:
        live = NoLimitWarning(live)
    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())  # Ctrl-C ends the search, not the report
    request = {"game": game, "seed": _seed(seed), "numbering": numbering, "options": rules.to_json(),
               "deal": g.deal_to_json(position) if deal_file is not None else None,
               "max_nodes": max_nodes, "timeout": timeout, "tt_mb": tt_mb, "line": line}
    try:
        remote = server.solve_remote(request, progress=live, stop=stop)  # None: no resident solver free
        if remote is not None:
            result = SolveResult.from_json(remote)
        else:
            result = api.solve(dealt=(g, rules, position), seed=_seed(seed) if deal_file is None else None,
                               numbering=numbering, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, stop=stop,
                               progress=live, line=line)
    except VerificationError as err:
        click.echo(str(err), err=True)
        sys.exit(3)
    except ValueError as err:
        raise PatienceError(said(err)) from None
    finally:
        signal.signal(signal.SIGINT, previous)
        if live is not None:
            live.clear()
    _print_result(g, rules, position, result, deal_file, numbering, as_json, show)
    if html_file is not None:
        from .html import replay_page

        source = "standard input" if deal_file == "-" else deal_file
        title = (f"{g.name} #{seed} ({numbering} numbering)" if deal_file is None else f"{g.name}, deal file {source}")
        try:
            write_text(html_file, replay_page(g, position, rules, result, title))
        except OSError as err:
            raise PatienceError(f"cannot write {html_file!r}: {err.strerror or err}") from None
        click.echo(f"wrote the replay page {html_file}", err=True)
    if result.reason == "interrupted":
        click.echo("patience: interrupted", err=True)
        sys.exit(130)


class LiveLine:
    """The search's progress on one terminal line of stderr, once it has run a second."""

    def __init__(self, cards: int) -> None:
        self.cards = cards
        self.last = 0.0
        self.shown = False

    def __call__(self, s) -> None:
        if s.seconds < 1 or s.seconds - self.last < 0.5:
            return
        self.last = s.seconds
        rate = s.nodes / s.seconds
        text = (f"searching {s.seconds:.0f} s: {s.nodes:,} nodes ({rate / 1e6:.2f} M/s), {s.stored:,} stored, "
                f"best {s.best_cards}/{self.cards} home")
        click.echo("\r" + text[:_width() - 1] + "\x1b[K", err=True, nl=False)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", err=True, nl=False)


NO_LIMIT_WARNING_AFTER = 10.0  # seconds of a search without --timeout or --max-nodes before it says so


class NoLimitWarning:
    """A search without --timeout or --max-nodes may run for hours: once it has run
    NO_LIMIT_WARNING_AFTER seconds, one line on stderr says so (as ``batch`` does at its
    start; a quick solve stays quiet).  Wraps the terminal's LiveLine, if any."""

    def __init__(self, live: LiveLine | None) -> None:
        self.live = live
        self.said = False

    def __call__(self, s) -> None:
        if not self.said and s.seconds >= NO_LIMIT_WARNING_AFTER:
            self.said = True
            self.clear()
            click.echo(f"patience: warning: no --timeout or --max-nodes, so this search runs until it ends or "
                       f"Ctrl-C (it has run {s.seconds:.0f} s; try --timeout 60)", err=True)
        if self.live is not None:
            self.live(s)

    def clear(self) -> None:
        if self.live is not None:
            self.live.clear()


def _width() -> int:
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


MIN_RATE_SECONDS, MIN_RATE_NODES = 0.1, 10_000  # smaller solves print no nodes per second


def _print_result(g, rules, position, result, deal_file, numbering, as_json, show) -> None:
    """The result of one solve, as text for a person or as one JSON object."""
    if deal_file is not None:
        result.seed, result.numbering = None, None
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    source = "standard input" if deal_file == "-" else deal_file
    where = f"#{result.seed} ({numbering} numbering)" if result.seed is not None else f"deal file {source}"
    rules_text = describe_rules(result.rules)
    click.echo(f"{g.name} {where}, rules: {rules_text}")
    verdict = result.verdict
    if result.reason:
        verdict += f" ({result.reason})"
    if result.verified:
        verdict += ", line verified by the reference engine"
    if result.proof is not None and result.proof in g.proofs:  # how the game proved it, in the adapter's words
        verdict += f" ({g.proofs[result.proof]})"
    click.echo(f"verdict: {verdict}")
    # over a few milliseconds or nodes, a rate measures the timer and the tables' set-up, not the search
    rate = (f"   ({result.nodes / result.seconds:,.0f} nodes/s)"
            if result.seconds >= MIN_RATE_SECONDS and result.nodes >= MIN_RATE_NODES else "")
    click.echo(f"nodes: {result.nodes}   positions stored: {result.stored_states}   time: {result.seconds:.3f} s"
               + rate)
    if not result.won and result.best_progress is not None:
        click.echo(f"best found: {result.best_progress}")
    if not result.moves:
        return
    positions = list(g.positions(position, rules, result.moves))
    numbered = steps(result.moves, positions, position)
    found = result.line_found_length or len(result.moves)  # before --line short rewrote it
    shortened = f", shortened from {found}" if found > len(result.moves) else ""
    if result.moves_found > found:
        shortened += f"; {result.moves_found - found} moves of loops cut from the search's line"
    click.echo(f"winning line: {len(numbered)} steps ({len(result.moves)} moves{shortened})")
    if show:
        click.echo(g.render(position))
        for n, (text, last) in enumerate(numbered, 1):
            click.echo(f"\n{n}. {text}")
            click.echo(g.render(positions[last]))
    else:
        for n, (text, _last) in enumerate(numbered, 1):
            click.echo(f"{n:4d}. {text}")


@main.command()
@click.argument("game")
@click.argument("seed")
@rule_options
@click.option("--json", "as_json", is_flag=True, help="Print the deal file (JSON) instead of a board.")
def deal(game, seed, numbering, options, as_json):
    """Print deal SEED of GAME as a board (or, with --json, as a deal file)."""
    g, rules, position = _deal(game, seed, numbering, None, options)
    numbering = numbering or PYSOLFC
    if as_json:
        click.echo(json.dumps(api.deal_file_json(g, rules, position, seed=_seed(seed), numbering=numbering),
                              indent=1))
    else:
        click.echo(f"{g.name} #{seed} ({numbering} numbering)")
        click.echo(g.render(position))


def _read_moves(path: str, after: int | None) -> list[Move]:
    """Moves from a file: a JSON list of moves, or the object ``solve --json`` prints."""
    from ..core.dealfile import DealFileError, read_json

    try:
        obj = read_json(path)
    except DealFileError as err:
        raise PatienceError(str(err)) from None
    if isinstance(obj, dict):
        obj = obj.get("moves")
    try:
        if not all(type(m.get("count", 1)) is int for m in obj):
            raise ValueError("a count that is not a whole number")
        moves = [Move.from_json(m) for m in obj]
    except (TypeError, KeyError, ValueError, AttributeError, OverflowError):
        raise PatienceError(f"{path}: not a list of moves (as the \"moves\" of 'patience solve --json')") from None
    if after is not None:
        if not 0 <= after <= len(moves):
            raise PatienceError(f"--after {after}: the line in {path} has {len(moves)} moves")
        moves = moves[:after]
    return moves


@main.command()
@click.argument("game")
@click.argument("seed", required=False)
@click.option("--deal", "deal_file", metavar="FILE", help="Start from the position in a deal file ('-': stdin).")
@rule_options
@click.option("--moves", "moves_file", metavar="FILE",
              help="Moves already played: a JSON list of moves, or what 'patience solve --json' prints.")
@click.option("--after", type=INTEGER, metavar="N", help="Play only the first N moves of --moves.")
@click.option("--timeout", type=float, default=10.0, show_default=True, metavar="SECONDS",
              help="Give up (undecided) after this long.")
@click.option("--tt-mb", type=float, default=DEFAULT_TT_MB, show_default=True, help="Transposition table size (MB).")
def hint(game, seed, deal_file, numbering, options, moves_file, after, timeout, tt_mb):
    """The next move of a winning line from a deal, or from where a line of moves leads."""
    if after is not None and moves_file is None:
        raise PatienceError("--after counts the moves of a --moves file; give one")
    if after is not None and after < 0:
        raise PatienceError(f"invalid --after {after}: must be 0 or more (the number of moves to play)")
    if deal_file == "-" and moves_file == "-":
        raise PatienceError("standard input can hold the --deal file or the --moves file, not both")
    if deal_file is not None and numbering is not None:
        raise PatienceError("--numbering applies to seeds, not to a --deal file")
    moves = _read_moves(moves_file, after) if moves_file is not None else []
    try:
        result, step = api.hint(game, _seed(seed), moves, numbering=numbering or PYSOLFC, deal=deal_file,
                                timeout=timeout, tt_mb=tt_mb, **options)
    except VerificationError as err:
        click.echo(str(err), err=True)
        sys.exit(3)
    except (ValueError, OSError) as err:
        raise PatienceError(said(err)) from None
    where = f"after {len(moves)} move{'s' if len(moves) != 1 else ''}" if moves else "from the start"
    if result.won and not result.moves:
        click.echo(f"nothing to do ({where}): the position is already won")
    elif step is not None:
        click.echo(f"next ({where}): {step}")
        click.echo(f"a winning line of {len(result.moves)} moves follows (replayed by the reference engine)")
    elif result.verdict == "lost":
        click.echo(f"no move wins ({where}): the position is lost (every line was searched)")
    else:
        click.echo(f"undecided ({where}): no winning line found within the limit ({result.reason})")
        if result.best_progress is not None:
            click.echo(f"best found: {result.best_progress}")


# the batch's progress bar: deals per second, then the postfix (tqdm puts ", " before
# it); the bar itself shrinks first, so the win rate (first in the postfix) stays
# readable at 80 columns
BAR_FORMAT = "{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"


def bar_rate(won: int, lost: int, unknown: int) -> str:
    """The win rate so far and its 95% interval.  With unknown deals the estimate is a
    range, those deals counted as lost and as won (won / all to (won + unknown) / all),
    as the interval counts them: 31 won, 9 unknown is "77.5%-100.0%", not "100%".  One
    decimal: the bar must fit 80 columns (the summary at the end gives two)."""
    from ..runs.stats import win_rate

    rate = win_rate(won, lost, unknown)
    n = rate.n
    if n == 0:
        return "no deals yet"
    interval = f"[{100 * rate.low:.1f}%, {100 * rate.high:.1f}%]"
    if not unknown:
        return f"{100 * won / n:.1f}% {interval}"
    return f"{100 * won / n:.1f}%-{100 * (won + unknown) / n:.1f}% {interval}"


def bar_postfix(counts: dict) -> str:
    """The postfix of the batch's bar: win rate, interval, and the counts."""
    won, lost, unknown = counts["won"], counts["lost"], counts["unknown"]
    return f"{bar_rate(won, lost, unknown)} won {won} lost {lost} unknown {unknown}"


def _dask_threads(b) -> int:
    """Worker threads of the batch's Dask cluster now (0: none has joined)."""
    try:
        return sum(b.client.nthreads().values())
    except Exception:  # the scheduler is asked again when the batch runs; it reports its own errors
        return 1


def _db_option(f):
    return click.option(
        "--db", "db_path", type=click.Path(dir_okay=False), default=None,
        help="SQLite results file (default: $PATIENCE_DB, else patience-results.sqlite in the current directory).",
    )(f)


@contextlib.contextmanager
def _existing_db(db_path):
    """The database opened read-only, for the commands that only read it; a damaged one
    (found on opening or while reading) is one line naming it, never a traceback."""
    from ..runs.store import Store, StoreError

    path = _db_file(db_path)
    if not os.path.isfile(path):
        raise PatienceError(f"no results database at {str(path)!r} (run 'patience batch' first, or give --db)")
    try:
        store = Store(path, readonly=True)
    except StoreError as err:
        raise PatienceError(str(err)) from None
    with store:
        try:
            yield store
        except StoreError as err:
            raise PatienceError(str(err)) from None
        except sqlite3.Error as err:
            raise PatienceError(f"cannot read database {str(path)!r}: {err}") from None


@main.command()
@click.argument("game")
@click.option("--seeds", "seed_spec", required=True, metavar="SPEC",
              help="Seeds to solve: 5, 1-100000 or 1-10,20-30.")
@rule_options
@click.option("--timeout", type=float, metavar="SECONDS", help="Per deal: stop with 'unknown: time-limit'.")
@click.option("--max-nodes", type=INTEGER, help="Per deal: stop with 'unknown: node-limit'.")
@click.option("--tt-mb", type=float, default=None,
              help="Transposition table per worker (MB; default 2048, halved until all workers fit in half the RAM).")
@click.option("--workers", type=INTEGER, default=None, help="Parallel workers (default: the number of cores).")
@click.option("--mode", type=click.Choice(["threads", "processes"]), default=None,
              help="Worker threads over the nogil kernels (default) or worker processes.")
@_db_option
@click.option("--scheduler", metavar="ADDRESS", help="Run on a Dask cluster (tcp://HOST:PORT).")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
def batch(game, seed_spec, numbering, options, timeout, max_nodes, tt_mb, workers, mode, db_path, scheduler,
          progress):
    """Solve many deals of GAME in parallel; store, resume, report the win rate.

    Every finished deal goes to the database at once; rerunning the same command
    skips the seeds already stored and solves the rest.
    """
    from tqdm import tqdm

    from ..runs.batch import Batch
    from ..runs.report import summarize, summary_text
    from ..runs.store import StoreError

    numbering = numbering or PYSOLFC
    db = _db_file(db_path)
    try:
        b = Batch(game, seed_spec, numbering=numbering, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                  workers=workers, scheduler=scheduler, db=db, mode=mode, **options)
    except (ValueError, StoreError, ConnectionError) as err:
        raise PatienceError(said(err)) from None
    except sqlite3.Error as err:
        raise PatienceError(f"database {str(db)!r}: {err}") from None
    except ImportError as err:
        raise PatienceError(f"--scheduler needs dask: pip install 'dask[distributed]' ({err})") from None
    kind = {"processes": ("process", "processes"), "threads": ("thread", "threads")}[b.mode]
    where = f"Dask cluster {scheduler}" if scheduler else f"{b.workers} worker {kind[b.workers != 1]}"
    click.echo(f"{b.game} ({numbering}) rules: " + describe_rules(b.rules)
               + f"; seeds {b.seeds} ({len(b.seeds)}); {b.todo} to solve on {where}; tt {b.tt_mb:g} MB"
               + f"; database {db}", err=True)
    if scheduler and b.todo and not _dask_threads(b):
        click.echo(f"patience: warning: the Dask scheduler at {scheduler} has no workers: the deals wait until one "
                   f"joins (start one with: dask worker {scheduler})", err=True)
    if timeout is None and max_nodes is None and b.todo:
        click.echo("patience: warning: neither --timeout nor --max-nodes is set, so one hard deal can hold this "
                   "batch indefinitely (a full table evicts, it does not stop the search; try --timeout 60)", err=True)
    bar = tqdm(total=len(b.seeds), initial=len(b.seeds) - b.todo, unit="deal",
               disable=None if progress is None else not progress, dynamic_ncols=True, smoothing=0.05,
               bar_format=BAR_FORMAT)

    def show() -> None:
        bar.set_postfix_str(bar_postfix(b.counts), refresh=False)

    show()
    try:
        for _ in b:
            show()
            bar.update(1)
    except VerificationError as err:
        bar.close()
        click.echo(str(err), err=True)
        sys.exit(3)
    except KeyboardInterrupt:
        bar.close()
        click.echo(f"patience: interrupted: {b.solved} deals stored by this run; run the same command again "
                   "to resume", err=True)
        sys.exit(130)
    except sqlite3.Error as err:
        bar.close()
        raise PatienceError(f"database {str(db)!r}: {err}") from None
    bar.close()
    with _existing_db(str(db)) as store:
        config = next(c for c in store.configs() if c.id == b.config_id)
        s = summarize(config, store.rows(b.config_id, b.seeds))
    click.echo(summary_text(s, f" ({b.solved} solved by this run)"))


@main.command()
@click.argument("game")
@rule_options
@_db_option
@click.option("--won/--lost", "won", default=True, help="List the won deals (default, graded) or the lost ones.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default="-", show_default=True,
              help="Write the list here ('-': standard output).")
def seeds(game, numbering, options, db_path, won, out_file):
    """The decided deals of GAME in a results database, graded by difficulty, as a plain
    list a solitaire program can load ("winnable deals only")."""
    from ..runs.bank import bank, bank_text

    try:
        g = get_game(game)
        rules = g.make_rules(**options).to_json()
    except ValueError as err:
        raise PatienceError(said(err)) from None
    numbering = numbering or PYSOLFC
    verdict = "won" if won else "lost"
    _check_output(out_file, [_db_file(db_path)])
    with _existing_db(db_path) as store:
        entries = bank(store, g.name, rules, numbering, verdict)
    if not entries:
        raise PatienceError(f"no {verdict} {g.name} deals ({describe_rules(rules)}, {numbering} numbering) in the "
                            "database: run 'patience batch' with these rules first")
    try:
        with output_file(out_file) as out:
            out.write(bank_text(g.name, rules, numbering, entries, verdict))
    except OSError as err:
        raise PatienceError(f"cannot write {out_file!r}: {err.strerror or err}") from None
    if out_file != "-":
        click.echo(f"wrote {len(entries)} {verdict} deals to {out_file}", err=True)


@main.command()
@_db_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="patience-report", show_default=True,
              help="Folder for the PNG plots and report.md.")
def report(db_path, out_dir):
    """Markdown table of every configuration in the database, and PNG plots."""
    from ..runs.report import write_report

    _check_output(out_dir, [_db_file(db_path)], folder=True)
    with _existing_db(db_path) as store:
        try:
            table, files = write_report(store, out_dir)
        except OutputError as err:
            raise PatienceError(str(err)) from None
        except OSError as err:
            raise PatienceError(f"cannot write the report to {out_dir!r}: {err}") from None
    click.echo(table)
    click.echo("")
    for f in files:
        click.echo(f"wrote {f}")


@main.command()
@_db_option
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True)
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default="-", show_default=True,
              help="Output file ('-': standard output).")
def export(db_path, fmt, out_file):
    """Every stored deal, one row each, as CSV or JSON lines."""
    _check_output(out_file, [_db_file(db_path)])
    with _existing_db(db_path) as store:
        try:
            with output_file(out_file) as out:
                _write_export(store, fmt, out)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise PatienceError(f"cannot write {out_file!r}: {err.strerror or err}") from None


def _write_export(store, fmt, out) -> None:
    """Write every stored row to ``out`` as JSON lines or CSV."""
    import csv

    writer = None
    for row in store.export():
        if fmt == "jsonl":
            out.write(json.dumps(row) + "\n")
            continue
        row = {**row, "rules": json.dumps(row["rules"], sort_keys=True),
               "line": "" if row["line"] is None else json.dumps(row["line"])}
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(row), lineterminator="\n")
            writer.writeheader()
        writer.writerow(row)


@main.command()
@click.option("--max-nodes", type=INTEGER, default=None, help="Node cap per deal (default: the bench's own).")
def bench(max_nodes):
    """Deterministic node-count signature over fixed deals (quote it in commits)."""
    from ..runs.bench import BENCH_MAX_NODES, run_bench

    if max_nodes is not None and max_nodes < 1:
        raise PatienceError(f"invalid --max-nodes {max_nodes}: must be at least 1")
    rows, total, digest = run_bench(BENCH_MAX_NODES if max_nodes is None else max_nodes)
    for row in rows:
        click.echo(f"{row.label:50s} {row.verdict:8s} {row.nodes:>10d} nodes {row.seconds:7.3f} s")
    seconds = sum(r.seconds for r in rows)
    click.echo(f"total nodes {total}  signature {digest}  time {seconds:.2f} s  ({total / seconds:,.0f} nodes/s)")


@main.group(name="server")
def server_group() -> None:
    """A resident solver: keeps the search kernels loaded, so that each solve starts at once.

    While it runs, 'patience solve' hands its deal to it instead of loading numba and a
    kernel itself (about half a second); verdicts, lines and output are the same.  It
    serves this installation only (this checkout and Python environment): the socket is
    $PATIENCE_SERVER (off: never use one) or a private default path named after it."""


@server_group.command(name="start")
def server_start() -> None:
    """Start the resident solver in the background (loads every kernel first)."""
    try:
        st = server.start(waiting=lambda: click.echo("patience: loading the search kernels ...", err=True))
    except server.ServerError as err:
        raise PatienceError(str(err)) from None
    click.echo(f"resident solver running: pid {st['pid']}, socket {server.socket_path()}")


@server_group.command(name="stop")
def server_stop() -> None:
    """Stop the resident solver (a solve it is running ends as interrupted)."""
    click.echo("stopped" if server.stop() else "no resident solver was running")


@server_group.command(name="restart")
def server_restart() -> None:
    """Stop the resident solver and start it again (after an update of the code)."""
    server.stop()
    server_start.callback()


@server_group.command(name="status")
def server_status() -> None:
    """Say whether the resident solver runs, and on which code (exit 1: it does not)."""
    st = server.status()
    if st is None:
        click.echo(f"no resident solver on {server.socket_path()}")
        sys.exit(1)
    same = "this code" if st["digest"] == server.source_digest() else "other code: restart it"
    click.echo(f"resident solver: pid {st['pid']}, {same}, {'ready' if st['ready'] else 'loading kernels'}, "
               f"{'busy' if st['busy'] else 'idle'}, {st['solves']} solve{'' if st['solves'] == 1 else 's'} in {st['uptime']:.0f} s")


@main.command(name="games")
def list_games() -> None:
    """List the games, their aliases and presets (with PySolFC's game numbers)."""
    for name in game_names():
        g = get_game(name)
        click.echo(f"{g.name}: aliases {', '.join(g.aliases)}; piles {g.piles_doc}")
        for v in VARIANTS:
            if v.game == name:
                number = f"PySolFC game {v.pysolfc_game}" if v.pysolfc_game else "not in PySolFC"
                own = f"; also GAME {v.adapter}; piles {get_game(v.adapter).piles_doc}" if v.adapter else ""
                click.echo(f"  {v.preset or '(no presets)'}: {v.summary} ({number}{own})")


def run() -> None:
    """Entry point: click errors become one line on stderr and exit 2."""
    if hasattr(signal, "SIGPIPE"):  # `patience ... | head` ends quietly, as Unix tools do
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        main.main(standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("patience: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("patience: interrupted", err=True)
        sys.exit(130)
    except click.NoSuchOption as e:
        name = e.option_name or ""
        if name[1:].isdigit():  # "patience solve klondike -1": a seed, not an option
            click.echo(f"patience: error: invalid seed {name!r}: deal numbers are whole numbers from 1", err=True)
        else:
            click.echo(f"patience: error: {e.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"patience: error: {e.format_message()}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":
    run()
