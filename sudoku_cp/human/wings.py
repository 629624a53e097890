"""Wings: a bivalue or trivalue pivot and two bivalue pincers that it sees; whichever digit the pivot
takes, one pincer (or the pivot) holds z, so z leaves every cell that sees all of them.

XY-wing: pivot {x,y}, pincers {x,z} and {y,z}: z leaves the cells seeing both pincers (4.2 on Sudoku
Explainer's scale). XYZ-wing: pivot {x,y,z}, the same pincers: z leaves the cells seeing the pivot and
both pincers (4.4). "Sees" is ``Rules.peers``, so the variants' extra peers take part.
"""

from __future__ import annotations

from ..grid import symbol
from ..rules.constraints import cell_name
from .board import Board, digits_of
from .step import Step

__all__ = ["xy_wing", "xyz_wing"]


def _wing(board: Board, pivot_size: int) -> Step | None:
    rules = board.rules
    peers = rules.peers
    masks = board.masks
    count = [bin(m).count("1") if not v else 0 for m, v in zip(masks, board.values, strict=True)]
    for pivot in board.open_cells():
        if count[pivot] != pivot_size:
            continue
        pm = masks[pivot]
        wings = [c for c in peers[pivot] if count[c] == 2 and masks[c] & pm and masks[c] != pm]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = masks[a], masks[b]
                z = ma & mb
                if not z or z & (z - 1) or ma == mb:
                    continue
                if pivot_size == 2:
                    if z & pm or (ma | mb) & ~z != pm:
                        continue
                elif (ma | mb) != pm:
                    continue
                seen = set(peers[a]) & set(peers[b])
                if pivot_size == 3:
                    seen &= set(peers[pivot])
                seen -= {pivot, a, b}
                digit = z.bit_length()
                targets = board.places(sorted(seen), digit)
                if not targets:
                    continue
                name, difficulty = ("XY-wing", 4.2) if pivot_size == 2 else ("XYZ-wing", 4.4)
                n = rules.n
                reason = (
                    f"pivot {cell_name(pivot, n)} ({''.join(map(symbol, digits_of(pm)))}) with "
                    f"{cell_name(a, n)} and {cell_name(b, n)}: one of them is {symbol(digit)}"
                )
                eliminations = tuple((c, digit) for c in targets)
                digits = tuple(digits_of(pm | ma | mb))
                return Step(name, difficulty, rules, (), eliminations, (pivot, a, b), digits, (), reason)
    return None


def xy_wing(board: Board) -> Step | None:
    """XY-wing: a bivalue pivot {x,y} seeing pincers {x,z} and {y,z}."""
    return _wing(board, 2)


def xyz_wing(board: Board) -> Step | None:
    """XYZ-wing: a trivalue pivot {x,y,z} seeing pincers {x,z} and {y,z}."""
    return _wing(board, 3)
