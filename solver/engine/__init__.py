"""The search engine: driver, transposition table, kernel adapter, move order and the DFS loop template."""
