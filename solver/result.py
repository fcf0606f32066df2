"""The outcome of one solve: exactly one of won / lost / unknown, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .moves import Move

WON, LOST, UNKNOWN = "won", "lost", "unknown"
NODE_LIMIT, TIME_LIMIT, MEMORY_LIMIT, INTERRUPTED = "node-limit", "time-limit", "memory-limit", "interrupted"


class VerificationError(RuntimeError):
    """The kernel claimed a win whose line the reference engine rejects: a bug."""


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
    stored_states: int = 0
    proof: str | None = None  # lost only: "search" (space exhausted) or "relaxed-rules"

    @property
    def won(self) -> bool:
        return self.verdict == WON

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
            "moves": [m.to_json() for m in self.moves],
        }
