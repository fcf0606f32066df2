"""The outcome of one solve: exactly one of won / lost / unknown, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from .moves import Move

WON, LOST, UNKNOWN = "won", "lost", "unknown"
NODE_LIMIT, TIME_LIMIT, MEMORY_LIMIT, INTERRUPTED = "node-limit", "time-limit", "memory-limit", "interrupted"


def describe_rules(rules: dict) -> str:
    """Rules for a person: a preset by its name ("strict"), options as key=value."""
    if not rules:
        return "standard (the game has no options)"
    if list(rules) == ["rules"]:
        return str(rules["rules"])
    return ", ".join(f"{k}={v}" for k, v in rules.items())


class VerificationError(RuntimeError):
    """The kernel claimed a win whose line the reference engine rejects: a bug."""


class BestProgress(NamedTuple):
    """The most cards the search ever had on the foundations, of all the deal's cards
    (a won deal: every card)."""

    cards: int
    of: int

    def to_json(self) -> dict[str, int]:
        return {"cards": self.cards, "of": self.of}

    def __str__(self) -> str:
        return f"{self.cards} of {self.of} cards on the foundations"


@dataclass
class SolveResult:
    game: str
    rules: dict[str, Any]
    numbering: str | None
    seed: int | None
    verdict: str
    reason: str | None  # None unless verdict is unknown
    nodes: int
    seconds: float
    moves: list[Move] = field(default_factory=list)
    verified: bool = False
    # won only: length of the line as the search found it, before lines.without_cycles
    moves_found: int = 0
    # won only: "fast" (the line as found, loops cut) or "short" (then shortened, solver/core/shorten.py),
    # and the length of the line before shortening (len(moves) for "fast")
    line: str = "fast"
    line_found_length: int = 0
    stored_states: int = 0
    # lost only: "search" (space exhausted), "relaxed-rules", or a label of the game's
    # own (its adapter's ``proofs``: Windmill's "search+endgame", Great Wheel's
    # "low-cards-released")
    proof: str | None = None
    # the kernels' reduction counters over this search (e.g. endgame_tries, endgame_lost)
    counters: dict[str, int] = field(default_factory=dict, compare=False)
    best_progress: BestProgress | None = None  # None only where no search kept it
    # the moves to the best position: a list, or a function giving it (expanded on first use)
    line_to_best: list[Move] | Callable[[], list[Move]] | None = field(default=None, repr=False, compare=False)

    @property
    def won(self) -> bool:
        return self.verdict == WON

    @property
    def best_line(self) -> list[Move] | None:
        """The moves from the deal to the first position the search reached with
        ``best_progress.cards`` cards on the foundations (a won deal: its winning line)."""
        if callable(self.line_to_best):
            self.line_to_best = self.line_to_best()
        return self.line_to_best

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "numbering": self.numbering,
            "seed": self.seed,
            "verdict": self.verdict,
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "verified": self.verified,
            "proof": self.proof,
            "best_progress": None if self.best_progress is None else self.best_progress.to_json(),
            "moves_found": self.moves_found,
            "line": self.line,
            "line_found_length": self.line_found_length,
            "counters": dict(self.counters),
            "moves": [m.to_json() for m in self.moves],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "SolveResult":
        """The result ``to_json`` wrote, plus ``stored_states`` when present (the resident
        solver sends it; ``line_to_best`` is not carried)."""
        best = obj.get("best_progress")
        return cls(game=obj["game"], rules=obj["rules"], numbering=obj["numbering"], seed=obj["seed"],
                   verdict=obj["verdict"], reason=obj["reason"], nodes=obj["nodes"], seconds=obj["seconds"],
                   moves=[Move.from_json(m) for m in obj["moves"]], verified=obj["verified"],
                   moves_found=obj["moves_found"], line=obj.get("line", "fast"),
                   line_found_length=obj.get("line_found_length", 0), stored_states=obj.get("stored_states", 0), proof=obj["proof"],
                   counters=dict(obj.get("counters", {})),
                   best_progress=None if best is None else BestProgress(best["cards"], best["of"]))
