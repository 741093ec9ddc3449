"""CPU policy for the dés du menteur (Liar's dice): RULES.md §3.

``choose(view, legal, level, rng)`` picks one of ``legal`` (from ``menteur.turn_actions``
or ``legal_actions``; a ``Roll`` is a template the caller fills with
``menteur.complete``). It decides from the ``View`` alone: its own dice, every player's
dice count, this round's bids and the rules; it never sees the state, so it cannot know
what is under another player's cup. ``rng`` is the only randomness it uses.

A bid it makes is built here (``Bid(player, quantity, face)``) and played only when the
raise rules of RULES.md §3 allow it and ``legal`` holds it (or holds bid templates).

The levels (each opens on the face it holds most, at the highest quantity that holds
with a chance of at least ``TUNING.open_holds`` by its own dice):

- ``facile`` counts its own dice for a face (ones too, with jokers) plus the dice it
  expects among the others, and challenges a bid above that by more than one. Otherwise
  it raises on the face it holds most, by the smallest step; when that step would be
  implausible by the same count, it challenges instead.
- ``moyen`` takes the probability that a bid holds given its own dice (a binomial over
  the unknown dice, a third of them counting with jokers, a sixth without or for ones).
  It challenges below ``TUNING.moyen_challenge``, far below a half: the others mostly
  bid faces they hold, so a bid is likelier than the dice alone say. Otherwise it bids
  the smallest raise most likely to hold.
- ``difficile`` also reads the others' bids. For each opponent it keeps a posterior
  over their possible hands (every multiset of their dice, multinomial prior), each bid
  they made this round weighing a hand by a bidding model: a bidder names the face whose
  smallest raise their hand supports best (a softmax), at a quantity they expect to
  hold (a sigmoid), and ``model_eps`` of bids are bluffs that say nothing. The count of
  a face over the table is the convolution of those posteriors and its own dice. It
  challenges when the bid is less likely to hold than the risk of its best raise; a
  raise's risk is, over the next player's possible hands, the chance they challenge it
  (by their own dice it holds with less than ``doubt_at``, or ``doubt_wary`` for the
  ``doubt_mix`` share of wary players) while it is false, plus ``carry_on`` when they
  let it pass. It looks at the smallest raise on each face and one step above, and
  ``bluff`` of the time plays a close second choice so that its bids stay hard to read.
"""

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.games import menteur as g
from bot.kernel.levels import FACILE, LEVELS, MOYEN

FACES = (1, 2, 3, 4, 5, 6)
T = TypeVar("T")


def _memo(function: Callable[..., T]) -> Callable[..., T]:
    """A plain memo of ``function`` by its positional arguments (``_likelihoods`` keeps at most
    ``_MEMO_LIMIT`` entries: it starts afresh when full)."""
    table: dict[tuple[Any, ...], T] = {}

    def memoised(*args: Any) -> T:
        found = table.get(args)
        if found is None:
            if len(table) >= _MEMO_LIMIT:
                table.clear()
            found = table[args] = function(*args)
        return found

    memoised.__doc__ = function.__doc__
    return memoised


_MEMO_LIMIT = 20_000


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
    # difficile's model of a bidder: weight eps + sigmoid(beta * (support - expected need))
    face_beta: float = 1.5  # how surely a bidder names the face their hand supports best
    model_beta: float = 1.4  # how surely they bid a quantity they expect to hold
    model_shift: float = 0.5
    model_eps: float = 0.1  # the share of bids that say nothing (bluffs)
    doubt_at: float = 0.1  # the next player challenges a bid less likely than this to them
    doubt_sharp: float = 50.0
    doubt_mix: float = 0.5  # the share of wary players, who challenge below doubt_wary
    doubt_wary: float = 0.3
    carry_on: float = 0.1  # the chance of losing later when a raise is let pass
    jumps: int = 1  # raises looked at above the smallest one on each face
    margin: float = 0.0  # difficile challenges when P(bid) < least raise risk + margin
    bluff: float = 0.15  # how often difficile plays a close second choice
    bluff_slack: float = 0.12  # how close that choice must be


TUNING = _Tuning()


# --------------------------------------------------------------------------- what it sees


@dataclass(frozen=True, slots=True)
class _Table:
    """The view, reduced to the facts the levels use."""

    me: int
    dice: tuple[int, ...]
    counts: tuple[tuple[int, int], ...]  # (player, dice) of each player in the round
    history: tuple[tuple[int, int, int], ...]  # (player, quantity, face), oldest first
    bid: tuple[int, int] | None  # (quantity, face)
    jokers: bool  # this round's: never in a Palifico round
    locked: int | None = None  # a Palifico round's face, once opened

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def unknown(self) -> int:
        return self.total - len(self.dice)


def _table(view: g.View) -> _Table:
    counts = tuple((s.player, s.dice) for s in view.seats if s.status == g.IN and s.dice > 0)
    history = tuple((b.player, b.quantity, b.face) for b in view.history)
    bid = (view.bid[0], view.bid[1]) if view.bid is not None else None
    assert view.player is not None, "a CPU plays from a seat"
    dice = tuple(view.my_dice or ())
    return _Table(view.player, dice, counts, history, bid, view.jokers, view.locked_face)


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


def _bid_faces(jokers: bool, opening: bool) -> tuple[int, ...]:
    return (2, 3, 4, 5, 6) if jokers and opening else FACES


def _is_raise(previous: tuple[int, int] | None, quantity: int, face: int, jokers: bool) -> bool:
    """Whether (``quantity``, ``face``) may follow ``previous`` (RULES.md §3)."""
    if quantity < 1 or face not in FACES:
        return False
    if previous is None:
        return face in _bid_faces(jokers, True)
    q, f = previous
    if jokers and f != 1 and face == 1:
        return quantity >= (q + 1) // 2
    if jokers and f == 1 and face != 1:
        return quantity >= 2 * q + 1
    return quantity > q or (quantity == q and face > f)


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


def _faces(table: _Table) -> tuple[int, ...]:
    """The faces a bid may take now (a Palifico round's one face once opened)."""
    if table.locked is not None:
        return (table.locked,)
    return _bid_faces(table.jokers, table.bid is None)


def _raises(table: _Table) -> list[tuple[int, int]]:
    """The smallest raise on each face, within the dice in play."""
    found = []
    for face in _faces(table):
        quantity = 1 if table.bid is None else _minimal_raise(table.bid, face, table.jokers)
        if quantity <= table.total:
            found.append((quantity, face))
    return found


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
    if not bids and challenge is None:
        raise ValueError("no action a CPU plays among the legal ones")
    table = _table(view)
    if level == FACILE:
        wanted = _facile(table, rng)
    elif level == MOYEN:
        wanted = _moyen(table, rng)
    else:
        wanted = _difficile(table, rng)
    return _action(table, wanted, bids, challenge)


def acts(legal: list[g.Action]) -> bool:
    """Whether ``choose`` has something to play among ``legal``."""
    return any(isinstance(action, (g.Roll, g.Bid, g.Challenge)) for action in legal)


def _action(
    table: _Table,
    wanted: tuple[int, int] | None,
    bids: list[g.Bid],
    challenge: g.Challenge | None,
) -> g.Action:
    """The legal action for ``wanted`` (a bid, or None to challenge), with fallbacks."""
    if wanted is None and challenge is not None:
        return challenge
    if wanted is not None:
        bid = g.Bid(table.me, wanted[0], wanted[1])
        allowed = (
            wanted[0] <= table.total
            and wanted[1] in _faces(table)
            and _is_raise(table.bid, *wanted, table.jokers)
        )
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
    face = rng.choice(_best_faces(table, _bid_faces(table.jokers, True)))
    quantity = 1
    while quantity < table.total and _holds(table, quantity + 1, face) >= TUNING.open_holds:
        quantity += 1
    return quantity, face


def _facile(table: _Table, rng: random.Random) -> tuple[int, int] | None:
    def plausible(quantity: int, face: int) -> bool:
        expected = _support(table.dice, face, table.jokers) + table.unknown * _chance(
            face, table.jokers
        )
        return quantity <= expected + TUNING.facile_slack

    if table.bid is None:
        return _opening(table, rng)
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


def _moyen(table: _Table, rng: random.Random) -> tuple[int, int] | None:
    if table.bid is None:
        return _opening(table, rng)
    if _holds(table, *table.bid) < TUNING.moyen_challenge:
        return None
    raises = _raises(table)
    if not raises:
        return None
    best = max(_holds(table, q, f) for q, f in raises)
    choices = [(q, f) for q, f in raises if _holds(table, q, f) >= best - 1e-12]
    return rng.choice(choices)


# --------------------------------------------------------------------------- difficile


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
    """For each hand of ``_hands(n)``: how many of its dice count for each face."""
    return tuple(
        tuple(_hand_support(counts, face, jokers) for face in FACES) for counts, _ in _hands(n)
    )


def _hand_support(counts: tuple[int, ...], face: int, jokers: bool) -> int:
    if jokers and face != 1:
        return counts[face - 1] + counts[0]
    return counts[face - 1]


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1 / (1 + math.exp(-x))


@_memo
def _likelihoods(
    n: int, others: int, jokers: bool, previous: tuple[int, int] | None, quantity: int, face: int
) -> tuple[float, ...]:
    """For each hand of ``_hands(n)``: how likely its holder bids (``quantity``, ``face``)
    over ``previous``, with ``others`` dice hidden from them.

    The model: a bidder prefers the face whose smallest raise their hand supports best
    (a softmax over the faces of the expected count minus the quantity needed), and
    bids a quantity they expect to hold (a sigmoid of expected count minus quantity);
    ``model_eps`` of bids are bluffs that say nothing.
    """
    t = TUNING
    total = n + others
    faces = [
        (f, 1 if previous is None else _minimal_raise(previous, f, jokers))
        for f in _bid_faces(jokers, previous is None)
    ]
    faces = [(f, q) for f, q in faces if q <= total] or [(face, quantity)]
    # A face's margin: its support in the hand plus what the others' dice should add,
    # minus the quantity its smallest raise needs.
    offsets = [(f, others * _chance(f, jokers) - q) for f, q in faces]
    least = 1 if previous is None else _minimal_raise(previous, face, jokers)
    own = others * _chance(face, jokers)
    found = []
    for supports in _supports(n, jokers):
        margins = [supports[f - 1] + offset for f, offset in offsets]
        top = max(margins)
        norm = sum(math.exp(t.face_beta * (m - top)) for m in margins)
        mine = supports[face - 1] + own
        share = math.exp(t.face_beta * (mine - least - top)) / norm
        plausible = _sigmoid(t.model_beta * (mine - quantity + t.model_shift))
        found.append(t.model_eps + share * plausible)
    return tuple(found)


def _posteriors(table: _Table) -> list[tuple[int, list[tuple[tuple[int, ...], float]]]]:
    """For each opponent, their possible hands weighted by the bids they made this round."""
    total = table.total
    result = []
    for player, n in table.counts:
        if player == table.me:
            continue
        weights = [prior for _, prior in _hands(n)]
        previous: tuple[int, int] | None = None
        for p, q, f in table.history:
            if p == player:
                for i, like in enumerate(_likelihoods(n, total - n, table.jokers, previous, q, f)):
                    weights[i] *= like
            previous = (q, f)
        norm = sum(weights) or 1.0
        result.append(
            (player, [(c, w / norm) for (c, _), w in zip(_hands(n), weights, strict=True)])
        )
    return result


def _face_distribution(
    posteriors: list[list[tuple[tuple[int, ...], float]]], face: int, jokers: bool
) -> list[float]:
    """The distribution of the dice counting for ``face`` among the given hands."""
    total = [1.0]
    for hands in posteriors:
        size = max((sum(c) for c, _ in hands), default=0)
        mine = [0.0] * (size + 1)
        for counts, weight in hands:
            mine[_hand_support(counts, face, jokers)] += weight
        merged = [0.0] * (len(total) + size)
        for i, a in enumerate(total):
            if a:
                for j, b in enumerate(mine):
                    merged[i + j] += a * b
        total = merged
    return total


def _tail_of(dist: list[float]) -> list[float]:
    tail = [0.0] * (len(dist) + 1)
    for k in range(len(dist) - 1, -1, -1):
        tail[k] = tail[k + 1] + dist[k]
    return tail


def _at(tail: list[float], need: int) -> float:
    if need <= 0:
        return 1.0
    return tail[need] if need < len(tail) else 0.0


def _difficile(table: _Table, rng: random.Random) -> tuple[int, int] | None:
    """The choice least likely to cost a die, by the posterior over the others' hands."""
    if table.bid is None:
        return _opening(table, rng)
    t = TUNING
    posteriors = _posteriors(table)
    players = [p for p, _ in table.counts]
    index = players.index(table.me) if table.me in players else 0
    following = players[(index + 1) % len(players)]
    nexts = next((hands for p, hands in posteriors if p == following), [])
    rest = [hands for p, hands in posteriors if p != following]
    hidden_from_next = table.total - sum(
        table.counts[i][1] for i in range(len(players)) if players[i] == following
    )

    def holds(quantity: int, face: int) -> float:
        dist = _face_distribution([hands for _, hands in posteriors], face, table.jokers)
        return _at(_tail_of(dist), quantity - _support(table.dice, face, table.jokers))

    def risk(quantity: int, face: int, rest_tail: list[float]) -> float:
        """The chance a raise costs us: the next player challenges it and it is false,
        or lets it pass and the round goes on (``carry_on``)."""
        mine = _support(table.dice, face, table.jokers)
        wild = table.jokers and face != 1
        lost = 0.0
        for counts, weight in nexts:
            theirs = _hand_support(counts, face, table.jokers)
            seen = _tail(hidden_from_next, quantity - theirs, wild)
            doubt = (1 - t.doubt_mix) * _sigmoid(t.doubt_sharp * (t.doubt_at - seen))
            if t.doubt_mix:
                doubt += t.doubt_mix * _sigmoid(t.doubt_sharp * (t.doubt_wary - seen))
            false = 1 - _at(rest_tail, quantity - mine - theirs)
            lost += weight * (doubt * false + (1 - doubt) * t.carry_on)
        return lost

    current = holds(*table.bid)
    scored = []
    rest_tails: dict[int, list[float]] = {}
    for quantity, face in _raises(table):
        if face not in rest_tails:
            rest_tails[face] = _tail_of(_face_distribution(rest, face, table.jokers))
        for q in range(quantity, min(quantity + t.jumps, table.total) + 1):
            scored.append((risk(q, face, rest_tails[face]), q, face))
    scored.sort()
    if not scored or current < scored[0][0] + t.margin:
        return None
    best = scored[0][0]
    if rng.random() < t.bluff:
        close = [(q, f) for r, q, f in scored if r <= best + t.bluff_slack]
        return rng.choice(close)
    return scored[0][1], scored[0][2]
