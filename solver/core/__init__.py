"""What every layer shares: cards, moves, results, numbering, seed specs, deal and output files, winning lines."""
