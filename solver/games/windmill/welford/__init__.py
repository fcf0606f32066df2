"""Windmill under John Welford's rules (``--rules welford``): its own positions, deals,
reference engine and kernel; ``game.WelfordGame`` is the adapter the registry serves for
that preset."""
