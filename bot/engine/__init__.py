"""Pure game rules: no Discord, no database, no clock, no global random.

Randomness is data: callers roll with an injected ``random.Random`` (or scripted dice
in tests) and pass the values in actions.
"""
