"""CPU players, one module per game, each with the difficulty levels below.

A policy decides from what its player may know (a ``View``) and the legal actions,
with the caller's ``random.Random``; it never sees the state, so it cannot cheat.
"""

FACILE = "facile"
MOYEN = "moyen"
DIFFICILE = "difficile"
LEVELS: tuple[str, ...] = (FACILE, MOYEN, DIFFICILE)
