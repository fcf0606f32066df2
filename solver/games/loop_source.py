"""Print a game's generated DFS loop: the module ``engine/loop_template.build`` makes
from the game kernel's ``Loop`` and imports, where a numba typing error in one of the
kernel's slots points (the file's path goes to stderr).

    python -m solver.games.loop_source klondike          # the module's text
    python -m solver.games.loop_source windmill-welford --path   # only where it is
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import ModuleType

from . import get_game


def kernel_of(game: str) -> ModuleType:
    """The kernel module of a game (a name, alias or registry key: ``get_game``)."""
    return get_game(game).search_class().K


def generated(game: str) -> tuple[Path, str]:
    """Where the game kernel's generated loop is, and its text."""
    path = kernel_of(game).BUILT.path
    return path, path.read_text()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m solver.games.loop_source", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game name, alias or registry key (klondike, windmill-welford, ...)")
    ap.add_argument("--path", action="store_true", help="print only the generated file's path")
    args = ap.parse_args(argv)
    path, text = generated(args.game)
    if args.path:
        print(path)
    else:
        print(f"# {path}", file=sys.stderr)
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
