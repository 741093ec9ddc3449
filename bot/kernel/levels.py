"""CPU players' levels, the same words in every game.

A game's CPU policy decides from what its player may know (a view) and the legal
actions, with the caller's ``random.Random``; it never sees the state, so it cannot cheat.
"""

FACILE = "facile"
MOYEN = "moyen"
DIFFICILE = "difficile"
LEVELS: tuple[str, ...] = (FACILE, MOYEN, DIFFICILE)
