"""Research solvers: studies kept with their tests and reports, not part of the product.

Nothing in ``solver/`` imports them.  They import the product (``solver.games...``), run
from the project root (``python -m ...``, or the tests: pytest puts the root on the path).
"""
