"""The Python API.  The CLI is a thin wrapper around these functions.

    >>> import solver
    >>> r = solver.solve("klondike", seed=1, draw=3)
    >>> r.verdict, r.verified, len(r.moves)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from .core.dealfile import AnotherGamesDealFile, DealFileError, DealFileOptionError, read_json
from .core.errors import NAME
from .games import adapter_for, game_names, get_game
from .games.protocol import Rules
from .games.variants import accepts, options_of
from .core.lines import without_cycles
from .core.numbering import PYSOLFC
from .core.result import WON, BestProgress, SolveResult, VerificationError
from .engine.resources import DEFAULT_TT_MB, tables
from .engine.search import Limits, Status, StopFlag, drive
from .core.shorten import AUTO, shortened

LINE_MODES = ("fast", "short")  # solve(line=...): the line as found (loops cut), or shortened


def check_line_mode(line: str) -> None:
    """ValueError (one line) unless ``line`` is a line mode."""
    if line not in LINE_MODES:
        raise ValueError(f"unknown line mode {line!r}; choose from {', '.join(LINE_MODES)}")


def deal_file_json(g: Any, rules: Any, position: Any, *, seed: int | None = None,
                   numbering: str | None = None) -> dict:
    """A deal file for ``position`` that says where it comes from: game, rules and, for a
    numbered deal, seed and numbering (dealfile.META_KEYS); every loader accepts them."""
    meta: dict[str, Any] = {"game": g.name, "rules": rules.to_json()}
    if seed is not None:
        meta["seed"], meta["numbering"] = seed, numbering
    return {**meta, **g.deal_to_json(position)}


def deal_file_options(g: Any, path: str | Path) -> dict[str, Any]:
    """The rule options a deal file names ("rules"), after checking that it is a file of
    game ``g`` when it says ("game"); {} for a file that names neither."""
    obj = read_json(path)
    if not isinstance(obj, dict):
        return {}
    named = obj.get("game")
    if named is not None:
        try:
            other = get_game(str(named))
        except ValueError:
            raise DealFileError(f"{path}: unknown game {named!r} in the file") from None
        if other.name != g.name:
            name = "standard input" if str(path) == "-" else path
            raise AnotherGamesDealFile(f"{name} is a {other.name} deal file, not {g.name}", other.name, str(path))
    rules = obj.get("rules", {})
    if not isinstance(rules, dict):
        raise DealFileError(f"{path}: \"rules\" must be an object like {{\"rules\": \"strict\"}}")
    out = dict(rules)  # as the file says them: the game's make_rules reads its own values ("unlimited" passes)
    for key, value in out.items():
        if key not in options_of(g.name) or not accepts(key, value):
            raise DealFileError(f"{path}: \"rules\": {json.dumps({key: value})} is not a {g.name} rule option")
    try:  # values out of range: the file's fault, not a command-line flag's (the message names the key)
        g.make_rules(**out)
    except ValueError as err:
        raise DealFileError(f"{path}: the file's \"rules\" {json.dumps(rules)} are not valid: {err}") from None
    return out


def _looks_like(path: str | Path, g: Any, rules: Any, message: str) -> str | None:
    """Which other game or preset reads the file that ``g`` under ``rules`` refused, as a
    hint for the error message (None if no other one reads it; a preset named as the
    option "rules", errors.NAME)."""
    tries = [(other, {"rules": p} if p else {}) for other in map(get_game, game_names())
             for p in (other.presets or (None,))]
    for other, opts in tries:
        if other.name == g.name and (other.make_rules(**opts) == rules or "unknown key" not in message):
            continue  # another preset of this game, only for a file in another format
        try:
            other_rules = other.make_rules(**opts)
            adapter_for(other.name, other_rules).load_deal(path, other_rules).validate()
        except (ValueError, OSError):
            continue
        default = not opts or opts["rules"] == other.presets[0]
        preset = "" if default else f" {NAME} {opts['rules']}"
        return f"{other.name}{preset}"
    return None


def make_deal(game: str, seed: int | None = None, *, numbering: str = PYSOLFC,
              deal: Any = None, **options: Any):
    """Return (game adapter, rules, position) for a numbered deal or a deal file/position.

    The adapter is the one that plays these rules (``games.adapter_for``: Windmill's
    welford preset has its own).  A deal file's own "rules" apply unless ``options``
    name others.  ``rules`` is a preset's name or the game's rules already made (a
    batch makes them once for all its deals)."""
    front = get_game(game)
    is_path = isinstance(deal, (str, Path))
    if is_path:
        named = deal_file_options(front, deal)
        # a preset on the command line replaces the file's rules; single options refine them
        options = options if "rules" in options else {**named, **options}
    if isinstance(options.get("rules"), Rules):  # made once by the caller: carried, not made again
        if len(options) > 1:
            raise ValueError("give the rules already made or rule options, not both")
        rules = options["rules"]
    else:
        rules = front.make_rules(**options)
    g = adapter_for(front.name, rules)
    if deal is not None:
        if seed is not None:
            raise ValueError("give a seed or a deal file, not both")
        if is_path:
            try:
                position = g.load_deal(deal, rules)
            except DealFileError as err:
                hint = _looks_like(deal, front, rules, str(err))
                if hint is None:
                    raise
                raise DealFileOptionError("rules", f"{err} (it reads as a {hint} deal file)") from None
        else:
            position = deal
        position.validate()
    else:
        if seed is None:
            raise ValueError("give a seed or a deal file")
        if numbering not in g.numberings:
            raise ValueError(f"unknown numbering {numbering!r} for {g.name}; choose from {', '.join(g.numberings)}")
        position = g.deal(seed, numbering, rules)
    return g, rules, position


def _counters(*searches) -> dict[str, int]:
    total: dict[str, int] = {}
    for s in searches:
        if s is not None:
            for k, v in s.counters().items():
                total[k] = total.get(k, 0) + v
    return total


def solve(game: str | None = None, seed: int | None = None, *, numbering: str = PYSOLFC, deal: Any = None,
          dealt: tuple | None = None, max_nodes: int | None = None, timeout: float | None = None, tt_mb: float = DEFAULT_TT_MB,
          stop: StopFlag | None = None, progress: Callable[[Status], None] | None = None,
          line: str = "fast", line_nodes: int | None | str = AUTO,
          **options: Any) -> SolveResult:
    """Decide one deal: won (with a replayed line), lost (space exhausted) or unknown.

    ``options`` are the game's rule options (Klondike: draw, passes, worry_back).
    ``dealt``: instead of game, deal and options, a deal already made, ``make_deal``'s
    (adapter, rules, position), solved as it is (as deal ``seed`` of ``numbering`` when
    ``seed`` is given): one deal and one rules object per request.
    A won line that the reference engine rejects raises VerificationError: that is a
    bug in the kernel, and it is never reported as a win.  ``stop`` (an Event set by
    another thread or process) ends the search early as unknown: interrupted.
    ``progress`` (optional) is called after every slice of the search with a
    ``search.Status`` (nodes, stored positions, seconds, best cards so far).
    ``line``: "fast" reports the search's line with its loops cut; "short" then rewrites
    it shorter (shorten.shortened) within ``line_nodes`` units of work (AUTO: the default,
    shorten.default_budget), never seconds, so that the line depends on the deal and the
    options alone; the rewrite is replayed to the win, else the fast line stays.
    """
    check_line_mode(line)
    limits = Limits(max_nodes=max_nodes, timeout=timeout)
    if dealt is None:
        g, rules, position = make_deal(game, seed, numbering=numbering, deal=deal, **options)
    elif deal is not None or options:
        raise ValueError("give a deal already made or the deal and its rules, not both")
    else:
        g, rules, position = dealt
    numbered = deal is None and seed is not None
    with tables(tt_mb):  # the size every search of this solve takes its tables at, checked once
        kernel = g.searcher(position, rules)
        looser = g.relaxation(rules) if g.relaxation is not None else None
        relaxed = g.searcher(position, looser, slot="relaxed") if looser is not None else None
        if relaxed is None and g.loss_proof is not None:
            relaxed = g.loss_proof(position, rules)
        twin = g.twin(position, rules) if g.twin is not None else None
        before = _counters(kernel, twin)
        out = drive(kernel, limits, stop, relaxed, twin, progress)
    counters = {k: v - before.get(k, 0) for k, v in _counters(kernel, twin).items()}
    proof = out.proof
    if proof == "search":  # exhausted: a reduction that fired may name the proof (the adapter's search_proofs)
        proof = next((label for counter, label in g.search_proofs.items() if counters.get(counter, 0) > 0), proof)
    result = SolveResult(
        game=g.name, rules=rules.to_json(), numbering=numbering if numbered else None,
        seed=seed if numbered else None, verdict=out.verdict, reason=out.reason,
        nodes=out.nodes, seconds=out.seconds, moves=out.line, stored_states=kernel.stored_states + (twin.stored_states if twin is not None else 0),
        proof=proof, counters=counters, line=line,
    )
    if out.best is not None:
        result.best_progress = BestProgress(out.best.cards, g.total_cards(position))
        result.line_to_best = out.best.line
    if out.verdict == WON:
        what = f"{g.name} {seed if numbered else '(deal file)'}"
        try:  # cutting its loops replays the kernel's line move by move: an illegal move raises
            clean = without_cycles(g, position, rules, out.line)
        except ValueError:  # the reference engine's replay says why, as a VerificationError
            _verify(g, position, rules, out.line, what)
            raise
        _verify(g, position, rules, clean, what)  # the line reported, once, to the win
        result.moves_found = len(out.line)
        result.line_found_length = len(clean)
        if line == "short":
            clean = shortened(g, position, rules, clean, nodes=line_nodes).moves
        result.moves = clean
        result.verified = True
    return result


def _verify(g: Any, position: Any, rules: Any, line: list, what: str) -> None:
    """Replay a winning line in the reference engine; a line it rejects is a bug."""
    try:
        g.verify(position, rules, line)
    except ValueError as err:
        raise VerificationError(f"BUG: the kernel's winning line for {what} fails replay in the reference "
                                f"engine: {err}") from err


def position_after(game: str, seed: int | None = None, moves: list | None = None, *, numbering: str = PYSOLFC,
                   deal: Any = None, **options: Any):
    """(game adapter, rules, position) after playing ``moves`` from a deal; each move is
    checked by the reference engine (an illegal one raises ValueError naming it)."""
    from .games.replay import IllegalMove

    g, rules, position = make_deal(game, seed, numbering=numbering, deal=deal, **options)
    moves = list(moves or [])
    after = iter(g.positions(position, rules, moves))
    for number in range(1, len(moves) + 1):
        try:
            position = next(after)
        except IllegalMove as err:
            raise ValueError(f"move {number} of the line ({err.move}) is illegal: {err.reason}") from None
    return g, rules, position


def hint(game: str, seed: int | None = None, moves: list | None = None, *, numbering: str = PYSOLFC,
         deal: Any = None, timeout: float | None = 10.0, max_nodes: int | None = None, tt_mb: float = DEFAULT_TT_MB,
         **options: Any) -> tuple[SolveResult, str | None]:
    """Solve the position reached after ``moves`` and say what to do next: (the solve's
    result, the first step of its winning line, or None when the position is lost or
    undecided within the limits)."""
    from .core.lines import steps

    g, rules, position = position_after(game, seed, moves, numbering=numbering, deal=deal, **options)
    result = solve(dealt=(g, rules, position), timeout=timeout, max_nodes=max_nodes, tt_mb=tt_mb)
    if not result.won or not result.moves:  # lost, undecided, or won already
        return result, None
    first = steps(result.moves, list(g.positions(position, rules, result.moves)), position)[0][0]
    return result, first
