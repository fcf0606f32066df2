"""Atomic moves: the one move format every game prints, stores and replays.

A move is what a person does with their hands in one step: move ``count`` cards from
pile ``src`` to pile ``dst`` (``card`` is the bottom card of the moved group), turn
``count`` stock cards onto the waste, or turn the waste over into the stock.  Pile names
are per game (Klondike: ``stock``, ``waste``, ``T1``..``T7``, ``F1``..``F4``).
This is the ``moves`` list of ``--json`` output; any program can replay it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Move:
    src: str
    dst: str
    card: Card | None = None  # None for draws and redeals
    count: int = 1

    @property
    def is_draw(self) -> bool:
        return self.src == "stock" and self.dst == "waste"

    @property
    def is_redeal(self) -> bool:
        return self.src == "waste" and self.dst == "stock"

    def to_json(self) -> dict:
        if self.is_redeal:
            return {"from": self.src, "to": self.dst}
        out: dict = {"from": self.src, "to": self.dst}
        if self.card is not None:
            out["card"] = str(self.card)
        out["count"] = self.count
        return out

    @classmethod
    def from_json(cls, obj: dict) -> "Move":
        card = Card.parse(obj["card"]) if obj.get("card") else None
        count = int(obj.get("count", 0 if obj.get("from") == "waste" and obj.get("to") == "stock" else 1))
        return cls(str(obj["from"]), str(obj["to"]), card, count)

    def __str__(self) -> str:
        if self.is_redeal:
            return "turn the waste over into the stock"
        if self.is_draw:
            return f"draw {self.count} from the stock"
        what = str(self.card) if self.count == 1 else f"{self.count} cards from {self.card} up"
        return f"{what}: {self.src} -> {self.dst}"
