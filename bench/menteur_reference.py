"""The standard reference opponent at the dés du menteur: the "tuned binomial" player.

It is a bench opponent, not a level of the bot. From its own dice alone it prices a bid
(quantity ``q``, face ``f``) as P(Binomial(unknown dice, p) >= q - its own matching dice),
``p`` a third for faces 2-6 with jokers (a one counts for them too), a sixth for ones or
for every face without jokers. It challenges when the current bid holds with less than
``0.2`` (``0.1`` without jokers); otherwise it makes the legal raise with the highest
chance (ties: the lowest bid, by quantity then face), which is always the smallest raise
on some face. With no bid to beat it opens with the legal opening of highest chance, the
same tie-break. It never bluffs and is deterministic; it decides from the ``View`` only.
In a Palifico round (a table option) it prices bids as without jokers, the round's rule,
and never calls a calza (it knows only raising and challenging).
"""

from __future__ import annotations

from bot.games import menteur as g

CHALLENGE_JOKERS = 0.2
CHALLENGE_PLAIN = 0.1


def chance(view: g.View, quantity: int, face: int) -> float:
    """P(the bid holds) by the player's own dice and a binomial over the unknown ones."""
    jokers = view.jokers  # this round's: never in a Palifico round
    mine = g.count([view.my_dice or ()], face, jokers)
    return g.probability_at_least(view.unknown, quantity - mine, face, jokers)


def choose(view: g.View, legal: list[g.Action]) -> g.Action:
    """The reference's action among ``legal`` (a ``Roll`` template when it is to roll)."""
    for action in legal:
        if isinstance(action, g.Roll):
            return action
    bids = [action for action in legal if isinstance(action, g.Bid)]
    challenge = next((action for action in legal if isinstance(action, g.Challenge)), None)
    if view.bid is not None and challenge is not None:
        threshold = CHALLENGE_JOKERS if view.jokers else CHALLENGE_PLAIN
        if chance(view, *view.bid) < threshold or not bids:
            return challenge
    if not bids:
        raise ValueError("nothing for the reference to play")
    return min(bids, key=lambda b: (-chance(view, b.quantity, b.face), b.quantity, b.face))
