"""Windmill's loss studies: the exact pushdown solver and rank projections
(results/windmill-pushdown.md, results/windmill-projections.md)."""
