"""What every game shares, pure: events, refusals, the decide/evolve loop, dice, ratings,
and the ``GameSpec`` a game registers with.

Nothing here (nor in ``bot.games``) touches Discord, a database, a clock, the file system or
the global random: randomness is data, rolled by the caller with an injected
``random.Random`` and passed in actions.
"""
