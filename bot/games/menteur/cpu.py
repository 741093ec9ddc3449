"""CPU policy for the dés du menteur (Liar's dice): docs/rules.md#menteur.

``choose(view, legal, level, rng)`` picks one of ``legal`` (from ``menteur.turn_actions``
or ``legal_actions``; a ``Roll`` is a template the caller fills with
``menteur.complete``). It decides from the ``View`` alone: its own dice, every player's
dice count, this round's bids and the rules; it never sees the state, so it cannot know
what is under another player's cup. ``rng`` is the only randomness it uses.

A bid it makes is built here (``Bid(player, quantity, face)``) and played only when the
raise rules (docs/rules.md#menteur-raise) allow it and ``legal`` holds it (or holds bid
templates).

The levels (facile and moyen open on the face they hold most, at the highest quantity
that holds with a chance of at least ``TUNING.open_holds`` by their own dice; difficile
prices its openings as it prices raises):

- ``facile`` counts its own dice for a face (ones too, with jokers) plus the dice it
  expects among the others, and challenges a bid above that by more than one. Otherwise
  it raises on the face it holds most, by the smallest step; when that step would be
  implausible by the same count, it challenges instead.
- ``moyen`` takes the probability that a bid holds given its own dice (a binomial over
  the unknown dice, a third of them counting with jokers, a sixth without or for ones).
  It challenges below ``TUNING.moyen_challenge``, far below a half: the others mostly
  bid faces they hold, so a bid is likelier than the dice alone say. Otherwise it bids
  the smallest raise most likely to hold.
- ``difficile`` reads the others' bids. For each opponent it keeps a belief over their
  possible hands (every multiset of their dice, multinomial prior), each of their bids
  this round weighing a hand by how likely its holder was to make it (``_likelihood``):
  the model bidder prices bids by their own dice, challenges below a threshold drawn
  from a mixture (so a raise instead of a challenge says the last bid looked fair to
  them), and names the face whose smallest raise they trust most (a softmax), a jump
  above it saying they trust the larger quantity too; a few bids are noise. It
  challenges when the bid is likelier false, by those beliefs, than its best raise is
  safe. A raise is priced by a look-ahead over the next player's possible hands: the
  same model says when they challenge it (we lose if it is false) and, heads-up, which
  raise they answer with, which we would then challenge (we lose if it holds) unless
  raising again is safer (``raise_again``); at a larger table a raise let pass costs
  ``carry_on``. It draws among the choices close to the best (a softmax of the risk), so
  that its bids, openings too, stay hard to read.

The variants (table options): in a *Palifico* round ``_Table`` says ones are not jokers
and bids keep the opening's face, so every level prices and bids by that round's rules.
A *calza* (the last bid called exact: a die back when exact, unless at the starting
count; one lost otherwise) is called when its expected gain in dice is positive: facile
and moyen price exactness by their own dice, granting the bidder one die of the face
they named (people bid what they hold); difficile by its beliefs, weighed against its
other choices on the same scale (``_calza_loss``).
"""

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from bot.games import menteur as g
from bot.kernel.levels import FACILE, LEVELS, MOYEN

FACES = (1, 2, 3, 4, 5, 6)
T = TypeVar("T")


def _memo_upto(limit: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A plain memo by positional arguments keeping at most ``limit`` entries (the oldest
    goes first when full)."""

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        table: dict[tuple[Any, ...], T] = {}

        def memoised(*args: Any) -> T:
            found = table.get(args)
            if found is None:
                if len(table) >= limit:
                    del table[next(iter(table))]
                found = table[args] = function(*args)
            return found

        memoised.__doc__ = function.__doc__
        return memoised

    return decorate


_memo = _memo_upto(20_000)
_memo_large = _memo_upto(500)  # for tables over every hand of a player (up to 252)


def _multisets(n: int, lowest: int = 1) -> list[tuple[int, ...]]:
    """Every sorted ``n``-tuple of faces from ``lowest`` up."""
    if n == 0:
        return [()]
    return [(face, *rest) for face in range(lowest, 7) for rest in _multisets(n - 1, face)]


@dataclass(frozen=True, slots=True)
class _Tuning:
    """The knobs of the levels, set by simulation (``bench/cpu_menteur.py``)."""

    facile_slack: float = 1.0  # facile challenges a bid above its expected count by more
    moyen_challenge: float = 0.1  # moyen challenges a bid less likely to hold than this
    open_holds: float = 0.6  # an opening is the highest quantity at least this likely
    # difficile's model of a bidder (``_reaction``): a binomial bidder, softened
    face_beta: float = 12.0  # how surely they name the face whose raise they trust most
    rank_bias: float = 0.3  # their preference for the lower of two bids they trust as much
    model_eps: float = 0.05  # the share of bids that say nothing (noise, bluffs)
    jump_beta: float = 8.0  # a bid above the smallest raise: they trust it, a sigmoid of
    jump_at: float = 0.5  # its chance by their dice around this
    # (threshold, share): they challenge a bid less likely than threshold by their dice
    doubts: tuple[tuple[float, float], ...] = ((0.1, 0.3), (0.2, 0.4), (0.35, 0.3))
    doubt_floor: float = 0.05  # a bid is raised, not challenged, at least this often
    # difficile's choices
    raise_again: float = 0.45  # heads-up: the risk of raising again rather than challenging
    carry_on: float = 0.1  # more seats: the chance of losing later when a raise is let pass
    jumps: int = 2  # raises looked at above the smallest one on each face
    mix_slack: float = 0.15  # it draws among the choices this close to the best
    mix_temperature: float = 0.05  # the closer, the likelier (a softmax of the risk)


TUNING = _Tuning()


# --------------------------------------------------------------------------- what it sees


@dataclass(frozen=True, slots=True)
class _Table:
    """The view, reduced to the facts the levels use.

    The rules of this round live here and only here: ``jokers`` is whether ones count
    for the other faces *this round*, and ``faces`` the faces a bid may take now. A round
    with other rules (Palifico: no jokers, every bid on the opening face) sets these two
    in ``_table`` and everything below follows: ``locked`` is that face (None: any face).
    """

    me: int
    dice: tuple[int, ...]
    counts: tuple[tuple[int, int], ...]  # (player, dice) of each player in the round
    history: tuple[tuple[int, int, int], ...]  # (player, quantity, face), oldest first
    bid: tuple[int, int] | None  # (quantity, face)
    jokers: bool  # ones count for faces 2-6 this round
    locked: int | None = None  # the one face bids may take after the opening, if any
    start: int = 5  # the starting dice: a calza never takes a player above them
    palifico: bool = False  # a Palifico round: its opening's face is every later bid's
    calza: bool = False  # whether a calza (the last bid called exact) is legal now

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def unknown(self) -> int:
        return self.total - len(self.dice)

    def faces(self, opening: bool) -> tuple[int, ...]:
        """The faces of an opening bid (``opening``) or of a raise, this round."""
        if opening:
            return (2, 3, 4, 5, 6) if self.jokers else FACES
        return FACES if self.locked is None else (self.locked,)


def _table(view: g.View) -> _Table:
    counts = tuple((s.player, s.dice) for s in view.seats if s.status == g.IN and s.dice > 0)
    history = tuple((b.player, b.quantity, b.face) for b in view.history)
    bid = (view.bid[0], view.bid[1]) if view.bid is not None else None
    assert view.player is not None, "a CPU plays from a seat"
    dice = tuple(view.my_dice or ())
    return _Table(
        view.player,
        dice,
        counts,
        history,
        bid,
        view.jokers,
        view.locked_face,
        view.rules.dice,
        view.palifico is not None,
    )


# --------------------------------------------------------------------------- dice arithmetic


def _chance(face: int, jokers: bool) -> float:
    """The chance one unknown die counts for ``face``."""
    return 1 / 3 if jokers and face != 1 else 1 / 6


@_memo
def _tail(n: int, k: int, jokers_face: bool) -> float:
    """P(at least ``k`` of ``n`` dice count), a die counting with 1/3 or 1/6."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    p = 1 / 3 if jokers_face else 1 / 6
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def _support(dice: tuple[int, ...], face: int, jokers: bool) -> int:
    """How many of ``dice`` count for ``face`` (ones too, with jokers, unless ``face`` is 1)."""
    if jokers and face != 1:
        return sum(1 for die in dice if die == face or die == 1)
    return sum(1 for die in dice if die == face)


def _holds(table: _Table, quantity: int, face: int) -> float:
    """P(the bid holds) from its own dice alone."""
    need = quantity - _support(table.dice, face, table.jokers)
    return _tail(table.unknown, need, table.jokers and face != 1)


def _is_raise(table: _Table, quantity: int, face: int) -> bool:
    """Whether (``quantity``, ``face``) may follow the table's bid (docs/rules.md#menteur-raise)."""
    if quantity < 1 or quantity > table.total or face not in table.faces(table.bid is None):
        return False
    return table.bid is None or quantity >= _minimal_raise(table.bid, face, table.jokers)


def _minimal_raise(previous: tuple[int, int], face: int, jokers: bool) -> int:
    """The smallest quantity on ``face`` that raises ``previous``."""
    q, f = previous
    if jokers and f != 1 and face == 1:
        return (q + 1) // 2
    if jokers and f == 1 and face != 1:
        return 2 * q + 1
    if face > f:
        return q
    return q + 1


def _raises(table: _Table) -> list[tuple[int, int]]:
    """The smallest raise on each face, within the dice in play."""
    found = []
    for face in table.faces(table.bid is None):
        quantity = 1 if table.bid is None else _minimal_raise(table.bid, face, table.jokers)
        if quantity <= table.total:
            found.append((quantity, face))
    return found


# --------------------------------------------------------------------------- calza


CALZA: Literal["calza"] = "calza"  # what a level wants when it calls the last bid exact
_Wanted = tuple[int, int] | None | Literal["calza"]  # a bid, a challenge (None), a calza


def _exact_guess(table: _Table) -> float:
    """P(the last bid is exact) by its own dice, granting the bidder one die of the face
    they named (people bid what they hold): exactly the dice still missing among the
    other unknown ones. Facile and moyen call a calza by this chance."""
    assert table.bid is not None
    quantity, face = table.bid
    need = quantity - _support(table.dice, face, table.jokers)
    unknown = table.unknown
    bidder = next((n for p, n in table.counts if table.history and p == table.history[-1][0]), 0)
    if bidder > 0:
        need, unknown = need - 1, unknown - 1
    if need < 0:
        return 0.0
    wild = table.jokers and face != 1
    return _tail(unknown, need, wild) - _tail(unknown, need + 1, wild)


def _calza_gain(table: _Table, exact: float) -> float:
    """The expected change in its own dice from a calza exact with chance ``exact``: a die
    back when exact (none at the starting count), one lost otherwise."""
    back = 1.0 if len(table.dice) < table.start else 0.0
    return back * exact - (1 - exact)


# --------------------------------------------------------------------------- choosing


def choose(view: g.View, legal: list[g.Action], level: str, rng: random.Random) -> g.Action:
    """One of ``legal`` for ``view.player`` at ``level``; ``rng`` is the only randomness used.

    A roll comes first (the opener starting a round); then a bid or a challenge. A CPU
    never leaves nor stops: with nothing else to do it raises ``ValueError``.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    for action in legal:
        if isinstance(action, g.Roll):
            return action
    bids = [action for action in legal if isinstance(action, g.Bid)]
    challenge = next((action for action in legal if isinstance(action, g.Challenge)), None)
    calza = next((action for action in legal if isinstance(action, g.Calza)), None)
    if not bids and challenge is None:
        raise ValueError("no action a CPU plays among the legal ones")
    table = replace(_table(view), calza=calza is not None)
    wanted: _Wanted
    if level == FACILE:
        wanted = _facile(table, rng)
    elif level == MOYEN:
        wanted = _moyen(table, rng)
    else:
        wanted = _difficile(table, rng)
    if wanted == CALZA and calza is not None:
        return calza
    return _action(table, wanted, bids, challenge)


def acts(legal: list[g.Action]) -> bool:
    """Whether ``choose`` has something to play among ``legal``."""
    return any(isinstance(action, (g.Roll, g.Bid, g.Challenge, g.Calza)) for action in legal)


def _action(
    table: _Table,
    wanted: _Wanted,
    bids: list[g.Bid],
    challenge: g.Challenge | None,
) -> g.Action:
    """The legal action for ``wanted`` (a bid, or None to challenge), with fallbacks."""
    if wanted is None and challenge is not None:
        return challenge
    if isinstance(wanted, tuple):
        bid = g.Bid(table.me, wanted[0], wanted[1])
        allowed = _is_raise(table, *wanted)
        if bid in bids or (bids and allowed):
            return bid
    if challenge is not None:
        return challenge
    # No challenge to make and the wanted bid is not offered: the most likely offered bid.
    return max(bids, key=lambda b: (_holds(table, b.quantity, b.face), -b.quantity, b.face))


def _best_faces(table: _Table, faces: tuple[int, ...]) -> list[int]:
    best = max(_support(table.dice, f, table.jokers) for f in faces)
    return [f for f in faces if _support(table.dice, f, table.jokers) == best]


def _opening(table: _Table, rng: random.Random) -> tuple[int, int]:
    """The face it holds most, at the highest quantity likely enough to hold."""
    face = rng.choice(_best_faces(table, table.faces(True)))
    quantity = 1
    while quantity < table.total and _holds(table, quantity + 1, face) >= TUNING.open_holds:
        quantity += 1
    return quantity, face


def _facile(table: _Table, rng: random.Random) -> _Wanted:
    def plausible(quantity: int, face: int) -> bool:
        expected = _support(table.dice, face, table.jokers) + table.unknown * _chance(
            face, table.jokers
        )
        return quantity <= expected + TUNING.facile_slack

    if table.bid is None:
        return _opening(table, rng)
    if table.calza and _calza_gain(table, _exact_guess(table)) > 0:
        return CALZA
    if not plausible(*table.bid):
        return None
    raises = _raises(table)
    if not raises:
        return None
    held = _best_faces(table, tuple(f for _, f in raises))
    face = rng.choice(held)
    quantity = next(q for q, f in raises if f == face)
    if not plausible(quantity, face):
        return None
    return quantity, face


def _moyen(table: _Table, rng: random.Random) -> _Wanted:
    if table.bid is None:
        return _opening(table, rng)
    if table.calza and _calza_gain(table, _exact_guess(table)) > 0:
        return CALZA
    if _holds(table, *table.bid) < TUNING.moyen_challenge:
        return None
    raises = _raises(table)
    if not raises:
        return None
    best = max(_holds(table, q, f) for q, f in raises)
    choices = [(q, f) for q, f in raises if _holds(table, q, f) >= best - 1e-12]
    return rng.choice(choices)


# --------------------------------------------------------------------------- difficile
#
# Hands are face counts (index 0 for ones) of ``_hands(n)``, in one fixed order: a
# player's belief about an opponent is a list of weights over that order.


@_memo
def _hands(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every hand of ``n`` dice as face counts (index 0 for ones), with its probability."""
    found = []
    for combo in _multisets(n):
        counts = tuple(combo.count(face) for face in FACES)
        ways = math.factorial(n)
        for c in counts:
            ways //= math.factorial(c)
        found.append((counts, ways / 6**n))
    return tuple(found)


@_memo
def _supports(n: int, jokers: bool) -> tuple[tuple[int, ...], ...]:
    """For each face (index 0 for ones): how many dice of each hand of ``_hands(n)`` count."""
    return tuple(
        tuple(_hand_support(counts, face, jokers) for counts, _ in _hands(n)) for face in FACES
    )


def _hand_support(counts: tuple[int, ...], face: int, jokers: bool) -> int:
    if jokers and face != 1:
        return counts[face - 1] + counts[0]
    return counts[face - 1]


@_memo
def _tails(n: int, wild: bool) -> tuple[float, ...]:
    """``[k]``: P(at least k of ``n`` unknown dice count), k from 0 to n + 1; a die counts
    with a third (``wild``: a face 2-6 with jokers) or a sixth."""
    p = 1 / 3 if wild else 1 / 6
    mass = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    tails = [0.0] * (n + 2)
    for k in range(n, -1, -1):
        tails[k] = tails[k + 1] + mass[k]
    return tuple(tails)


def _at(tail: tuple[float, ...] | list[float], need: int) -> float:
    """``tail[need]``, 1 for a need of 0 or less, 0 past the end."""
    if need <= 0:
        return 1.0
    return tail[need] if need < len(tail) else 0.0


@dataclass(frozen=True, slots=True)
class _Reaction:
    """How the model bidder holding each hand answers a bid (or opens, with no bid)."""

    doubt: tuple[float, ...]  # per hand: the chance they challenge it
    raises: tuple[tuple[int, int], ...]  # the smallest raise on each face they may take
    shares: tuple[tuple[float, ...], ...]  # per raise, per hand: the chance they pick it


@_memo
def _doubts(n: int, others: int, jokers: bool, bid: tuple[int, int]) -> tuple[float, ...]:
    """``[s]``: the chance the model bidder with ``n`` dice, ``s`` of them counting for the
    bid's face, challenges ``bid`` (with ``others`` dice hidden from them): below a
    threshold drawn from ``TUNING.doubts``, by their own dice."""
    q, f = bid
    tail = _tails(others, jokers and f != 1)
    return tuple(
        sum(w for threshold, w in TUNING.doubts if _at(tail, q - s) < threshold)
        for s in range(n + 1)
    )


@_memo_large
def _reaction(
    n: int,
    others: int,
    jokers: bool,
    faces: tuple[int, ...],
    bid: tuple[int, int] | None,
    opening: int = 1,
) -> _Reaction:
    """The model of a bidder with ``n`` dice, ``others`` dice hidden from them, facing
    ``bid``, raises on ``faces`` (with no bid: opening ``opening`` dice of a face).

    They price a bid by their own dice (the binomial of ``_holds``). They challenge it
    below a threshold drawn from ``TUNING.doubts``; otherwise they name the face whose
    smallest raise they trust most (a softmax of ``face_beta`` times that chance, with a
    small preference, ``rank_bias``, for the lower bids).
    """
    t = TUNING
    total = n + others
    if bid is None:
        raises = tuple((opening, f) for f in faces)
    else:
        raises = tuple((q, f) for f in faces if (q := _minimal_raise(bid, f, jokers)) <= total)
    supports = _supports(n, jokers)
    size = len(supports[0])
    if bid is None:
        doubt = [0.0] * size
    elif not raises:
        return _Reaction((1.0,) * size, (), ())
    else:
        doubts = _doubts(n, others, jokers, bid)
        doubt = [doubts[s] for s in supports[bid[1] - 1]]
    # Each raise's weight in the softmax, by how many of the hand's dice count for it.
    order = sorted(range(len(raises)), key=lambda i: raises[i])
    columns = []
    for rank, i in enumerate(order):
        q, f = raises[i]
        tail = _tails(others, jokers and f != 1)
        weight = [
            math.exp(t.face_beta * (_at(tail, q - s) - 1) - t.rank_bias * rank)
            for s in range(n + 1)
        ]
        columns.append((i, [weight[s] for s in supports[f - 1]]))
    columns.sort()
    norms = [sum(row) for row in zip(*(column for _, column in columns), strict=True)]
    shares = tuple(
        [tuple([w / z for w, z in zip(column, norms, strict=True)]) for _, column in columns]
    )
    return _Reaction(tuple(doubt), raises, shares)


@_memo_upto(3_000)
def _likelihood(
    n: int,
    others: int,
    jokers: bool,
    faces: tuple[int, ...],
    previous: tuple[int, int] | None,
    quantity: int,
    face: int,
) -> tuple[float, ...]:
    """For each hand of ``_hands(n)``: how likely its holder, facing ``previous``, bids
    (``quantity``, ``face``). The bidder of ``_reaction``; an opening names the face they
    trust most at its quantity; a bid above the smallest raise on its face (an opening
    above one) says they trust the larger quantity too (a sigmoid of its chance by their
    dice); ``model_eps`` of bids are noise that says nothing."""
    t = TUNING
    reaction = _reaction(n, others, jokers, faces, previous, 1 if previous else quantity)
    index = next((i for i, (_, f) in enumerate(reaction.raises) if f == face), None)
    size = len(reaction.doubt)
    floor = t.model_eps / max(1, len(reaction.raises))
    if index is None:
        return (1.0,) * size
    least = 1 if previous is None else reaction.raises[index][0]
    share = reaction.shares[index]
    if quantity > least:
        tail = _tails(others, jokers and face != 1)
        by_support = [
            _sigmoid(t.jump_beta * (_at(tail, quantity - s) - t.jump_at)) for s in range(n + 1)
        ]
        jump = [by_support[s] for s in _supports(n, jokers)[face - 1]]
    else:
        jump = [1.0] * size
    keep = 1 - t.doubt_floor
    return tuple(
        (1 - keep * d) * (floor + (1 - t.model_eps) * s * j)
        for d, s, j in zip(reaction.doubt, share, jump, strict=True)
    )


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1 / (1 + math.exp(-x))


@dataclass(slots=True)
class _Belief:
    """What difficile believes of one opponent's hand: weights over ``_hands(dice)``."""

    player: int
    dice: int
    weights: list[float]

    def distribution(self, face: int, jokers: bool) -> list[float]:
        """The distribution of how many of their dice count for ``face``."""
        found = [0.0] * (self.dice + 1)
        for s, w in zip(_supports(self.dice, jokers)[face - 1], self.weights, strict=True):
            found[s] += w
        return found


def _beliefs(table: _Table) -> list[_Belief]:
    """For each opponent, their possible hands weighted by the bids they made this round
    (the bidder model of ``_likelihood``), in seating order from the one after us."""
    total = table.total
    players = [p for p, _ in table.counts]
    start = players.index(table.me) + 1 if table.me in players else 0
    found = []
    for player, n in table.counts[start:] + table.counts[:start]:
        if player == table.me:
            continue
        weights = [prior for _, prior in _hands(n)]
        previous: tuple[int, int] | None = None
        for p, q, f in table.history:
            if p == player:
                faces = table.faces(previous is None)
                like = _likelihood(n, total - n, table.jokers, faces, previous, q, f)
                weights = [w * x for w, x in zip(weights, like, strict=True)]
            previous = (q, f)
        norm = sum(weights)
        if norm <= 0:
            weights = [prior for _, prior in _hands(n)]
            norm = 1.0
        found.append(_Belief(player, n, [w / norm for w in weights]))
    return found


def _convolve(dists: list[list[float]]) -> list[float]:
    total = [1.0]
    for dist in dists:
        merged = [0.0] * (len(total) + len(dist) - 1)
        for i, a in enumerate(total):
            if a:
                for j, b in enumerate(dist):
                    merged[i + j] += a * b
        total = merged
    return total


def _tail_of(dist: list[float]) -> list[float]:
    tail = [0.0] * (len(dist) + 1)
    for k in range(len(dist) - 1, -1, -1):
        tail[k] = tail[k + 1] + dist[k]
    return tail


def _candidates(table: _Table) -> list[tuple[int, int]]:
    """The bids difficile weighs: on each face, the smallest raise and a few above (for an
    opening, every quantity up to a little above what the table should hold)."""
    t = TUNING
    found = []
    for face in table.faces(table.bid is None):
        if table.bid is None:
            mine = _support(table.dice, face, table.jokers)
            top = mine + math.ceil(table.unknown * _chance(face, table.jokers)) + t.jumps
            quantities = range(1, min(table.total, top) + 1)
        else:
            least = _minimal_raise(table.bid, face, table.jokers)
            quantities = range(least, min(table.total, least + t.jumps) + 1)
        found += [(q, face) for q in quantities]
    return found


def _calza_loss(table: _Table, exact: float, opponents: int) -> float:
    """A calza on the scale of the other choices' risk. A round lost costs us a die and a
    round won costs one of ``opponents`` a die, worth ``1 / opponents`` of ours: a choice
    losing with chance ``r`` is worth ``(1 - r) / opponents - r``. The calza, worth its
    expected gain in dice (``_calza_gain``), counts as the risk of the same worth."""
    share = 1 / opponents
    return (share - _calza_gain(table, exact)) / (1 + share)


def _difficile(table: _Table, rng: random.Random) -> _Wanted:
    """The choice least likely to cost a die, by the beliefs over the others' hands,
    drawn among the close ones so that its bids stay hard to read."""
    t = TUNING
    beliefs = _beliefs(table)
    jokers = table.jokers
    mine = {face: _support(table.dice, face, jokers) for face in FACES}
    following, rest = beliefs[0], beliefs[1:]
    n = following.dice
    supports = _supports(n, jokers)
    weights = following.weights
    live = [h for h, w in enumerate(weights) if w > 1e-9]
    any_face = table.faces(False)

    def raise_faces(face: int) -> tuple[int, ...]:
        """The faces the next player may raise on after our bid on ``face`` (only that one
        once a Palifico round is opened, the opening included)."""
        return (face,) if table.palifico else any_face

    next_faces: dict[int, list[float]] = {}
    rest_tails: dict[int, list[float]] = {}

    def next_face(face: int) -> list[float]:
        """How many of the next player's dice count for ``face``, by our belief."""
        if face not in next_faces:
            next_faces[face] = following.distribution(face, jokers)
        return next_faces[face]

    def rest_tail(face: int) -> list[float]:
        """P(the players after the next one hold at least k dice counting for ``face``)."""
        if face not in rest_tails:
            rest_tails[face] = _tail_of(_convolve([b.distribution(face, jokers) for b in rest]))
        return rest_tails[face]

    def loss_heads_up(quantity: int, face: int) -> float:
        """P(we lose the round): they challenge a false bid, or raise to a bid we then
        challenge while it holds (or we must raise again: ``raise_again``)."""
        reaction = _reaction(n, table.total - n, jokers, raise_faces(face), (quantity, face))
        column = supports[face - 1]
        need = quantity - mine[face]
        doubt = reaction.doubt
        lost = sum(weights[h] * doubt[h] for h in live if column[h] < need)
        passed = [(h, weights[h] * (1 - doubt[h])) for h in live]
        for (q, f), share in zip(reaction.raises, reaction.shares, strict=True):
            theirs = supports[f - 1]
            need_back = q - mine[f]
            came = holds = 0.0
            for h, w in passed:
                w *= share[h]
                came += w
                if theirs[h] >= need_back:
                    holds += w
            lost += min(holds, t.raise_again * came)
        return lost

    def loss_table(quantity: int, face: int) -> float:
        """P(we lose a die): the next player challenges it and it is false; ``carry_on``
        when they let it pass. Their doubt depends on how many of their dice count."""
        doubts = _doubts(n, table.total - n, jokers, (quantity, face))
        replies = raise_faces(face)
        if not any(_minimal_raise((quantity, face), f, jokers) <= table.total for f in replies):
            doubts = (1.0,) * (n + 1)
        tail = rest_tail(face)
        need = quantity - mine[face]
        return sum(
            p * (d * (1 - _at(tail, need - s)) + (1 - d) * t.carry_on)
            for s, (p, d) in enumerate(zip(next_face(face), doubts, strict=True))
        )

    loss = loss_heads_up if not rest else loss_table
    options: list[tuple[float, _Wanted]] = []
    if table.bid is not None:
        q, f = table.bid
        dist = _convolve([b.distribution(f, jokers) for b in beliefs])
        options.append((_at(_tail_of(dist), q - mine[f]), None))
        exact = dist[q - mine[f]] if 0 <= q - mine[f] < len(dist) else 0.0
        if table.calza and _calza_gain(table, exact) > 0:
            options.append((_calza_loss(table, exact, len(beliefs)), CALZA))
    options += [(loss(q, f), (q, f)) for q, f in _candidates(table)]
    best = min(loss for loss, _ in options)
    close = [(loss, choice) for loss, choice in options if loss <= best + t.mix_slack]
    odds = [math.exp((best - loss) / t.mix_temperature) for loss, _ in close]
    pick = rng.random() * sum(odds)
    for (_, choice), odd in zip(close, odds, strict=True):
        pick -= odd
        if pick <= 0:
            return choice
    return close[-1][1]


# --------------------------------------------------------------------------- the tutorial


@dataclass(frozen=True, slots=True)
class Reading:
    """What difficile reads of the bid to beat from one seat (the tutorial's hint).

    ``holds``: the chance the bid holds given the seat's dice and the others' bids (the
    beliefs of ``_beliefs``); ``alone``: given the seat's dice only. ``players``: for each
    opponent who bid this round, (player, how many of their dice should count for the
    bid's face by their bids, the same at random)."""

    holds: float
    alone: float
    players: tuple[tuple[int, float, float], ...]


def reading(view: g.View) -> Reading | None:
    """Difficile's reading of the bid ``view``'s player faces (None with no bid to beat)."""
    if view.bid is None or view.player is None or view.my_dice is None:
        return None
    table = _table(view)
    assert table.bid is not None
    quantity, face = table.bid
    jokers = table.jokers
    beliefs = _beliefs(table)
    dist = _convolve([belief.distribution(face, jokers) for belief in beliefs])
    holds = _at(_tail_of(dist), quantity - _support(table.dice, face, jokers))
    bidders = {player for player, _, _ in table.history}
    players = tuple(
        (
            belief.player,
            sum(k * w for k, w in enumerate(belief.distribution(face, jokers))),
            belief.dice * _chance(face, jokers),
        )
        for belief in beliefs
        if belief.player in bidders
    )
    return Reading(holds, _holds(table, quantity, face), players)
