"""Windmill under John Welford's rules (``windmill --rules welford``): its own positions,
deals, reference engine and kernel; ``game.WindmillWelford`` is the adapter that plays
that preset."""
