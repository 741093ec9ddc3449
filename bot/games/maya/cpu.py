"""CPU policy for Maya (party preset ``soiree``) and Mia (lives preset ``vies``):
docs/rules.md#maya.

``choose(view, legal, level, rng)`` picks one of ``legal`` (templates from
``maya.legal_actions``: the caller fills the dice with ``maya.complete``). It decides
from the ``View`` alone (the public facts and the dice its player looked at), the
probabilities of ``dice.py`` and the injected ``rng``; it never sees the state, so it
cannot know what is under another player's cup.

The levels:

- ``facile`` believes almost everything, lifts only the doubles and Maya (and now and
  then on a whim), tells the truth when it can and bluffs with visible jumps, takes a
  Maya for a coin toss and sometimes plays blind or as Warrior for fun.
- ``moyen`` lifts when a fresh roll would reach the announcement less than 30% of the
  time, tells the truth when it can, bluffs with the smallest legal value and re-rolls
  (Seconde chance) when that small value is likely. With lives it lifts every Maya
  (a fresh roll makes one 1 time in 18); at a party it takes a seen Maya as Fragile.
- ``difficile`` weighs each choice by what it expects to lose. It knows announcements
  are biased (who cannot beat the value still has to announce above it): ``_MODEL``
  plays a sensible table forward to estimate, for each value, how often a seen
  announcement of it is true and how often it is lifted. Believing counts the cost of
  the announcement that must follow (a high value means a likely bluff, and a Maya
  right over a 55 or a 66 fools nobody who heard it). As announcer it picks among the
  truth, an under-announcement (a low truth keeps the round from climbing back to it),
  a bluff, a Photo, a Tapote (which die) or a Seconde chance by the chance the next
  player lifts and the chance the dice hold. A blind announcement is judged by the dice
  probability itself. With lives it weighs the two lives a true Maya costs, and the
  elimination when they are its last.
"""

import math
import random
from dataclasses import dataclass

from bot.games import maya as m
from bot.games.maya import values as d
from bot.games.maya.values import MAYA, ORDER, RANK, Dice
from bot.kernel.levels import DIFFICILE, FACILE, LEVELS, MOYEN

_AT_LEAST: dict[int, float] = {v: float(d.probability_at_least(v)) for v in ORDER}
_BEAT: dict[int, float] = {v: float(d.probability_to_beat(v)) for v in ORDER}
_PROB: dict[int, float] = {v: float(d.probability(v)) for v in ORDER}

# A glass (cul sec) counted in sips, to compare the party penalties.
GLASS_SIPS = 5

_TURN_ACTIONS = (
    m.Roll,
    m.Announce,
    m.Photo,
    m.Tap,
    m.SecondChance,
    m.Believe,
    m.Lift,
    m.Fragile,
    m.Warrior,
    m.AcceptMaya,
)


def choose(view: m.View, legal: list[m.Action], level: str, rng: random.Random) -> m.Action:
    """One of ``legal`` for ``view.player`` at ``level``; ``rng`` is the only randomness used.

    The turn comes first; otherwise a pending accusation is accepted and a vote is cast
    innocent. A CPU never accuses, appeals, joins or leaves: with nothing else to do it
    raises ``ValueError`` (``acts`` tells beforehand).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    turn: list[m.Action] = [action for action in legal if isinstance(action, _TURN_ACTIONS)]
    if turn:
        if view.phase == m.OPEN:
            return _open(view, turn, level, rng)
        if view.phase == m.ANNOUNCE:
            return _announce(view, turn, level, rng)
        return _respond(view, turn, level, rng)
    for action in legal:
        if isinstance(action, m.AcceptFault):
            return action
    for action in _first_votes(legal):
        if not action.guilty:
            return action
    raise ValueError("no action a CPU plays among the legal ones")


def _first_votes(legal: list[m.Action]) -> list[m.Vote]:
    """Votes on accusations not voted on yet (both sides open): a CPU votes once, for good."""
    return [
        action
        for action in legal
        if isinstance(action, m.Vote)
        and m.Vote(action.player, action.fault, True) in legal
        and m.Vote(action.player, action.fault, False) in legal
    ]


def acts(legal: list[m.Action]) -> bool:
    """Whether ``choose`` has something to play among ``legal`` (a turn, a fault to answer, a vote)."""
    turn = (*_TURN_ACTIONS, m.AcceptFault)
    return any(isinstance(action, turn) for action in legal) or bool(_first_votes(legal))


# --------------------------------------------------------------------------- the table


def _next_player(view: m.View, direction: int) -> int | None:
    """The next seated player after ``view.player`` going in ``direction``."""
    seats = view.seats
    count = len(seats)
    index = next((i for i, seat in enumerate(seats) if seat.player == view.player), None)
    if index is None:
        return None
    for step in range(1, count):
        seat = seats[(index + step * direction) % count]
        if seat.status == m.IN:
            return seat.player
    return None


def _seat(view: m.View, player: int | None) -> m.SeatView | None:
    for seat in view.seats:
        if seat.player == player:
            return seat
    return None


def _drunk(seat: m.SeatView) -> int:
    return seat.sips + GLASS_SIPS * seat.glasses


# --------------------------------------------------------------------------- opening


def _open(view: m.View, legal: list[m.Action], level: str, rng: random.Random) -> m.Action:
    reverse = view.may_reverse and _wants_reverse(view, level, rng)
    blind = level == FACILE and rng.random() < 0.05
    rolls = [action for action in legal if isinstance(action, m.Roll)]
    for wanted in ((reverse, blind), (reverse, False), (False, False)):
        for roll in rolls:
            if (roll.reverse, roll.blind) == wanted:
                return roll
    return legal[0]


def _wants_reverse(view: m.View, level: str, rng: random.Random) -> bool:
    """After a Maya: ``difficile`` reverses so that the weaker player answers it next.

    Weaker: who drank most (party), who has fewest lives (lives). The others toss a coin.
    """
    if level != DIFFICILE:
        return rng.random() < (0.5 if level == FACILE else 0.3)
    ahead = _seat(view, _next_player(view, view.direction))
    behind = _seat(view, _next_player(view, -view.direction))
    if ahead is None or behind is None or ahead.player == behind.player:
        return False
    if view.rules.lives:
        ahead_weakness, behind_weakness = -ahead.lives, -behind.lives
    else:
        ahead_weakness, behind_weakness = _drunk(ahead), _drunk(behind)
    if ahead_weakness == behind_weakness:
        return rng.random() < 0.25
    return behind_weakness > ahead_weakness


# --------------------------------------------------------------------------- what difficile expects


@dataclass(frozen=True, slots=True)
class _Tuning:
    """The knobs of ``difficile``, set by simulation (``bench/cpu_maya.py``)."""

    centre: float = 0.28  # a sensible player lifts below this chance of a fresh roll
    temperature: float = 0.04  # how sharply
    spread: tuple[float, ...] = (0.7, 0.3)  # forced bluffs: how far above the value
    raise_share: float = 0.15  # announcers who could tell the truth but raise anyway
    lift_maya: float = 0.6  # how often a seen Maya is lifted (lives preset)
    lift_maya_party: float = 0.7  # the same with sips and glasses
    gain: float = 0.3  # another player's loss, against our own
    pressure: float = 0.3  # the next player's trouble with a high value, against our own loss
    truth_risk: float = 0.05  # our risk later in a round when we could tell the truth
    ladder: float = 0.05  # our risk when the round comes back to us, by how high it climbed


TUNING = _Tuning()


@dataclass(frozen=True, slots=True)
class _Model:
    """For each value: how often a seen announcement of it is true, how often it is lifted."""

    truth: dict[int, float]
    lift: dict[int, float]


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _build_model(tuning: _Tuning, steps: int = 16) -> _Model:
    """A sensible table played forward, announcement after announcement.

    Its players lift a value when a fresh roll reaches it less often than ``centre``.
    They tell the truth when they can (a ``raise_share`` of them announce a little more);
    when they cannot, they bluff just above the value to beat. A value's truth is the
    share of true announcements among all its announcements: high values are reached
    mostly by forced bluffs, which is why they are less true than the dice alone say.
    """
    last = len(ORDER) - 1
    lift = {v: _sigmoid((tuning.centre - _AT_LEAST[v]) / tuning.temperature) for v in ORDER}
    true_mass = dict.fromkeys(ORDER, 0.0)
    false_mass = dict.fromkeys(ORDER, 0.0)
    reach: dict[int, float] = {-1: 1.0}  # rank of the value to beat (-1: none yet) -> mass
    for _ in range(steps):
        following: dict[int, float] = {}  # what the next player believed, by rank
        for floor, mass in reach.items():
            for rolled in ORDER:
                share = mass * _PROB[rolled]
                if RANK[rolled] > floor:
                    honest = share * (1 - tuning.raise_share)
                    true_mass[rolled] += honest
                    believed = honest * (1 - lift[rolled])
                    following[RANK[rolled]] = following.get(RANK[rolled], 0.0) + believed
                    share -= honest  # the others raise above their roll
                base = max(floor, RANK[rolled])
                for offset, weight in enumerate(tuning.spread):
                    index = min(base + 1 + offset, last)
                    false_mass[ORDER[index]] += share * weight
                    believed = share * weight * (1 - lift[ORDER[index]])
                    following[index] = following.get(index, 0.0) + believed
        following.pop(last, None)  # a Maya ends the round
        reach = following
    truth = {}
    for v in ORDER:
        total = true_mass[v] + false_mass[v]
        truth[v] = true_mass[v] / total if total else _AT_LEAST[v]
    return _Model(truth, lift)


_MODEL = _build_model(TUNING)


# --------------------------------------------------------------------------- announcing


def _announce(view: m.View, legal: list[m.Action], level: str, rng: random.Random) -> m.Action:
    options = _Options.of(view, legal)
    dice = view.my_dice
    if level == FACILE:
        return _announce_facile(view, options, rng)
    if level == MOYEN:
        return _announce_moyen(view, options, rng)
    if dice is None or view.my_play == m.AVEUGLE or view.my_play == m.SECONDE_CHANCE:
        return _best_blind(view, options, _AT_LEAST)[0]
    if view.my_play == m.TAPOTE:
        die = _tapped_die(dice, options.lowest())
        return _best_blind(view, options, _tap_chances(dice, die, options))[0]
    return _announce_seen(view, options, dice)


@dataclass(slots=True)
class _Options:
    """The legal announcing actions, sorted by kind."""

    announces: dict[int, m.Announce]
    photo: m.Photo | None
    photo_value: int | None
    taps: list[m.Tap]
    second: m.SecondChance | None

    @classmethod
    def of(cls, view: m.View, legal: list[m.Action]) -> "_Options":
        announces: dict[int, m.Announce] = {}
        photo = second = None
        taps = []
        for action in legal:
            if isinstance(action, m.Announce):
                announces[action.value] = action
            elif isinstance(action, m.Photo):
                photo = action
            elif isinstance(action, m.Tap):
                taps.append(action)
            elif isinstance(action, m.SecondChance):
                second = action
        return cls(announces, photo, view.announced if photo else None, taps, second)

    def values(self) -> list[int]:
        """The announceable values, weakest first (a Photo's value included)."""
        values = sorted(self.announces, key=RANK.__getitem__)
        if self.photo_value is not None:
            values.insert(0, self.photo_value)
        return values

    def lowest(self) -> int:
        return self.values()[0]

    def action(self, value: int) -> m.Action:
        if value == self.photo_value and self.photo is not None:
            return self.photo
        return self.announces[value]


def _announce_facile(view: m.View, options: _Options, rng: random.Random) -> m.Action:
    """The truth when it can, otherwise a bluff that often jumps; sometimes a blind play for fun."""
    values = options.values()
    if view.my_dice is not None and view.my_play is None:
        rolled = d.read(view.my_dice)
        if rolled in options.announces or rolled == options.photo_value:
            return options.action(rolled)
        fun: list[m.Action] = [*options.taps, *([options.second] if options.second else [])]
        if fun and rng.random() < 0.15:
            return rng.choice(fun)
    if rng.random() < 0.5:
        return options.action(values[0])
    return options.action(rng.choice(values[:6]))


def _announce_moyen(view: m.View, options: _Options, rng: random.Random) -> m.Action:
    """The truth when it can; else Seconde chance when the smallest value is likely, or a small bluff."""
    values = options.values()
    if view.my_dice is not None and view.my_play is None:
        rolled = d.read(view.my_dice)
        if rolled in options.announces or rolled == options.photo_value:
            return options.action(rolled)
        if options.second is not None and _AT_LEAST[values[0]] >= 0.5:
            return options.second
    if len(values) > 1 and rng.random() < 0.2:
        return options.action(values[1])
    return options.action(values[0])


def _announce_seen(view: m.View, options: _Options, dice: Dice) -> m.Action:
    """``difficile`` with its dice in sight: the announcement (or blind play) of least cost."""
    rolled = RANK[d.read(dice)]
    lives = view.rules.lives
    best_value = options.lowest()
    best = math.inf
    for value in options.values():
        true = 1.0 if rolled >= RANK[value] else 0.0
        cost = _announce_cost(value, true, lives, blind=False, previous=view.announced)
        if cost < best:
            best_value, best = value, cost
    choice: m.Action = options.action(best_value)
    forced = view.announced is not None and rolled <= RANK[view.announced]
    if not forced or (options.second is None and not options.taps):
        return choice
    if options.second is not None:
        _, cost = _best_blind(view, options, _AT_LEAST)
        if cost < best:
            choice, best = options.second, cost
    for tap in options.taps:
        _, cost = _best_blind(view, options, _tap_chances(dice, tap.die, options))
        if cost < best:
            choice, best = tap, cost
    return choice


def _best_blind(
    view: m.View, options: _Options, chances: dict[int, float]
) -> tuple[m.Action, float]:
    """The blind announcement of least cost, the dice reaching each value with ``chances``."""
    lives = view.rules.lives
    best_value = options.lowest()
    best = math.inf
    for value in options.values():
        cost = _announce_cost(value, chances[value], lives, blind=True, previous=view.announced)
        if cost < best:
            best_value, best = value, cost
    return options.action(best_value), best


def _announce_cost(
    value: int, true: float, lives: bool, *, blind: bool, previous: int | None
) -> float:
    """Our expected loss for announcing ``value`` when it is true with chance ``true``.

    The next player lifts as ``_MODEL`` says (a blind Maya always: everyone knows its
    chance); a lifted truth costs them, a lifted bluff costs us; a believed high value
    puts them in trouble (they must beat it, often by bluffing), which we count as
    ``pressure``.
    """
    t = TUNING
    if value == MAYA:
        lift = 1.0 if blind else _seen_maya_lift(previous, lives)
        ours = 1.0 if lives else GLASS_SIPS  # a lifted fake Maya: a life, or a glass
        theirs = 2.0 if lives else GLASS_SIPS  # a lifted true one: two lives, or a glass
        return lift * ((1 - true) * ours - t.gain * theirs * true) - (1 - lift) * t.gain
    lift = _MODEL.lift[value]
    following = ORDER[RANK[value] + 1]
    trouble = (1 - _BEAT[value]) * _MODEL.lift[following] if following != MAYA else 1 - _BEAT[value]
    believed = t.ladder * (1 - _BEAT[value]) - t.pressure * trouble
    return lift * ((1 - true) - t.gain * true) + (1 - lift) * believed


def _seen_maya_lift(previous: int | None, lives: bool) -> float:
    """How often a Maya we saw ourselves is lifted, right after ``previous``.

    The next player heard ``previous`` too: over a 55 or a 66 a Maya is mostly the forced
    bluff of someone who could not beat it (the model's bluffers land there), so they
    judge it by the dice alone, as they would a blind one.
    """
    t = TUNING
    base = t.lift_maya if lives else t.lift_maya_party
    if previous is None:
        return base
    floor = RANK[previous]
    forced = sum(
        weight for offset, weight in enumerate(t.spread) if floor + 1 + offset >= RANK[MAYA]
    )
    if not forced:
        return base
    bluffs = (1 - _AT_LEAST[ORDER[floor + 1]]) * forced
    truth = _PROB[MAYA] / (_PROB[MAYA] + bluffs)
    # Lift when a true Maya costs less than accepting: two lives against one, a glass against a sip.
    threshold = 0.5 if lives else 1 / GLASS_SIPS
    return max(base, _sigmoid((threshold - truth) / t.temperature))


def _tap_outcomes(dice: Dice, die: int) -> tuple[tuple[int, float], ...]:
    """The ranks the dice may read after tapping ``die``, with their chances."""
    pip = dice[die]
    outcomes = [(RANK[d.read(dice)], 0.5)]
    for landing in d.neighbours(pip):
        tapped = (landing, dice[1]) if die == 0 else (dice[0], landing)
        outcomes.append((RANK[d.read(tapped)], 0.125))
    return tuple(outcomes)


_TAP_OUTCOMES = {
    ((a, b), die): _tap_outcomes((a, b), die)
    for a in range(1, 7)
    for b in range(1, 7)
    for die in (0, 1)
}


def _tap_at_least(dice: Dice, die: int, value: int) -> float:
    """Probability that after tapping ``die`` the dice read at least ``value``."""
    floor = RANK[value]
    return sum(p for rank, p in _TAP_OUTCOMES[dice, die] if rank >= floor)


def _tap_chances(dice: Dice, die: int, options: _Options) -> dict[int, float]:
    return {value: _tap_at_least(dice, die, value) for value in options.values()}


def _tapped_die(dice: Dice, value: int) -> int:
    """The die ``difficile`` taps to reach ``value``: the view does not say which one was."""
    return 0 if _tap_at_least(dice, 0, value) >= _tap_at_least(dice, 1, value) else 1


# --------------------------------------------------------------------------- answering


def _respond(view: m.View, legal: list[m.Action], level: str, rng: random.Random) -> m.Action:
    lift = next((a for a in legal if isinstance(a, m.Lift)), None)
    announced = view.announced
    if lift is None or announced is None:
        return legal[0]
    if announced == MAYA:
        return _respond_maya(view, legal, lift, level, rng)
    believes = [a for a in legal if isinstance(a, m.Believe)]
    believe = next((a for a in believes if not a.blind), believes[0] if believes else lift)
    if level == FACILE:
        blind = next((a for a in believes if a.blind), None)
        if blind is not None and rng.random() < 0.05:
            return blind
        lifts = RANK[announced] >= RANK[11]
        if announced != ORDER[0] and rng.random() < 0.1:
            lifts = not lifts
        return lift if lifts else believe
    if level == MOYEN:
        return lift if _AT_LEAST[announced] < 0.3 else believe
    truth = _truth(view, announced)
    lifted = truth - TUNING.gain * (1 - truth)
    return lift if lifted < _believe_cost(view, announced) else believe


def _truth(view: m.View, value: int) -> float:
    """How likely the announcement on the table is true, as ``difficile`` sees it."""
    if view.blind_announce:
        return _AT_LEAST[value]
    return _MODEL.truth[value]


def _believe_cost(view: m.View, value: int) -> float:
    """Our expected loss if we believe ``value``: roll, then announce above it at least cost."""
    rules = view.rules
    return _BELIEVE_COSTS[rules.lives, rules.photo and not view.photo, rules.seconde_chance][value]


def _believe_costs(lives: bool, photo: bool, second: bool) -> dict[int, float]:
    """For each value: our expected cost of rolling fresh dice and announcing over it."""
    costs = {}
    for value in ORDER[:-1]:
        candidates = list(ORDER[RANK[value] + 1 :])
        if photo:
            candidates.insert(0, value)
        true = [_announce_cost(v, 1.0, lives, blind=False, previous=value) for v in candidates]
        false = [_announce_cost(v, 0.0, lives, blind=False, previous=value) for v in candidates]
        blind = math.inf
        if second:
            blind = min(
                _announce_cost(v, _AT_LEAST[v], lives, blind=True, previous=value)
                for v in candidates
            )
        total = 0.0
        for rolled in ORDER:
            # The dice make every candidate up to ``rolled`` true, every one above a bluff.
            reach = sum(1 for v in candidates if RANK[v] <= RANK[rolled])
            best = min([*true[:reach], *false[reach:], blind])
            total += _PROB[rolled] * best
        costs[value] = total + TUNING.truth_risk * _BEAT[value]
    return costs


# Which rules matter: lives or sips, whether a Photo may follow, whether Seconde chance is on.
_BELIEVE_COSTS: dict[tuple[bool, bool, bool], dict[int, float]] = {
    (lives, photo, second): _believe_costs(lives, photo, second)
    for lives in (False, True)
    for photo in (False, True)
    for second in (False, True)
}


def _respond_maya(
    view: m.View, legal: list[m.Action], lift: m.Lift, level: str, rng: random.Random
) -> m.Action:
    accept = next((a for a in legal if isinstance(a, m.AcceptMaya)), None)
    fragile = next((a for a in legal if isinstance(a, m.Fragile)), None)
    warrior = next((a for a in legal if isinstance(a, m.Warrior)), None)
    submit = fragile or accept
    if level == FACILE:
        if warrior is not None and rng.random() < 0.2:
            return warrior
        if submit is not None and rng.random() < 0.5:
            return submit
        return lift
    if submit is None:
        return lift
    if level == MOYEN:
        # Lives: a fresh roll makes Maya 1 time in 18, worth the 2 lives. Sips: never
        # risk a glass on a Maya its announcer saw; a blind one is lifted.
        return lift if view.rules.lives or view.blind_announce else submit
    truth = _truth(view, MAYA)
    gain = TUNING.gain
    if view.rules.lives:
        seat = _seat(view, view.player)
        lives = seat.lives if seat is not None else 1
        lifted = truth * _life_cost(2, lives) - gain * (1 - truth)
        return lift if lifted < _life_cost(1, lives) else submit
    glass = GLASS_SIPS
    lifted = truth * glass - gain * (1 - truth) * glass
    return lift if lifted < 1 else submit


def _life_cost(lost: int, lives: int) -> float:
    """Losing ``lost`` of our ``lives``: being eliminated weighs more than the lives alone."""
    if lost >= lives:
        return lives + 1.0
    return float(lost)
