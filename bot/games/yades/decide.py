"""Deciders: an action and the state give the events it causes (or a refusal)."""

from __future__ import annotations

from typing import Any

from bot.games.yades import evolve
from bot.games.yades.actions import Leave, Roll, Score, Stop, kept_positions
from bot.games.yades.events import (
    BonusEarned,
    GameEnded,
    GameWon,
    PlayerLeft,
    Rolled,
    Scored,
    TurnPassed,
)
from bot.games.yades.rules import (
    DICE,
    FACES,
    FIVE_BONUS,
    IN,
    MAX_ROLLS,
    MIN_PLAYERS,
    UPPER,
    UPPER_BONUS,
    BoxFilled,
    Dice,
    JokerForced,
    MustRollAll,
    NoRollsLeft,
    NothingToRoll,
    NotRolled,
    UnknownBox,
)
from bot.games.yades.scoring import (
    allowed_boxes,
    five_bonus_due,
    joker_applies,
    points,
    upper_total,
)
from bot.games.yades.state import Seat, State
from bot.kernel.errors import InvalidDice, NotYourTurn, UnknownPlayer
from bot.kernel.events import Event


def _turn(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        raise UnknownPlayer(player=player)
    if state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    return seat


def _check_fresh_dice(dice: Any, expected: int) -> Dice:
    if (
        not isinstance(dice, tuple | list)
        or len(dice) != expected
        or not all(
            isinstance(pip, int) and not isinstance(pip, bool) and 1 <= pip <= FACES for pip in dice
        )
    ):
        raise InvalidDice(dice=repr(dice), expected=expected)
    return tuple(dice)


def decide_roll(state: State, action: Roll) -> list[Event]:
    _turn(state, action.player)
    kept = kept_positions(action.keep)
    if state.rolls >= MAX_ROLLS:
        raise NoRollsLeft(rolls=state.rolls)
    if state.rolls == 0 and kept:
        raise MustRollAll(keep=list(kept))
    if len(kept) == DICE:
        raise NothingToRoll()
    fresh = iter(_check_fresh_dice(action.dice, DICE - len(kept)))
    before = state.dice or (0,) * DICE
    dice = [before[i] if i in kept else next(fresh) for i in range(DICE)]
    return [Rolled(player=action.player, roll=state.rolls + 1, kept=list(kept), dice=dice)]


def decide_score(state: State, action: Score) -> list[Event]:
    seat = _turn(state, action.player)
    if state.dice is None or state.rolls == 0:
        raise NotRolled()
    sheet, dice, filled = state.sheet, state.dice, seat.boxes
    box = sheet.box(action.box) if isinstance(action.box, str) else None
    if box is None:
        raise UnknownBox(box=repr(action.box))
    if box.id in filled:
        raise BoxFilled(box=box.id, points=filled[box.id])
    allowed = allowed_boxes(sheet, filled, dice)
    if box not in allowed:
        raise JokerForced(box=box.id, allowed=[b.id for b in allowed])
    gained = points(sheet, box, dice, filled)
    player = action.player
    events: list[Event] = [
        Scored(
            player=player,
            box=box.id,
            points=gained,
            scratched=gained == 0,
            joker=joker_applies(sheet, filled, dice),
            dice=list(dice),
        )
    ]
    extra = five_bonus_due(sheet, filled, dice)
    if extra:
        events.append(BonusEarned(player=player, bonus=FIVE_BONUS, points=extra))
    after = {**filled, box.id: gained}
    if box.section == UPPER and sheet.bonus_points:
        target = sheet.bonus_target
        if upper_total(sheet, filled) < target <= upper_total(sheet, after):
            events.append(BonusEarned(player=player, bonus=UPPER_BONUS, points=sheet.bonus_points))
    events.extend(_next_turn(evolve.replay(state, events), player))
    return events


def _next_turn(state: State, player: int) -> list[Event]:
    """After ``player``'s turn (or departure): the game's end, or the next player's turn."""
    remaining = state.active()
    if len(remaining) < MIN_PLAYERS:
        return [GameWon(winners=remaining, reason="players_left", ranking=state.ranking())]
    following = state.next_after(player)
    if following is None:
        ranking = state.ranking()
        best = ranking[0]["total"]
        winners = [row["player"] for row in ranking if row["total"] == best]
        return [GameWon(winners=winners, reason="sheets_full", ranking=state.ranking())]
    return [TurnPassed(player=following, turn=state.turn + 1)]


def decide_leave(state: State, action: Leave) -> list[Event]:
    seat = state.seat(action.player)
    if seat is None or seat.status != IN:
        raise UnknownPlayer(player=action.player)
    events: list[Event] = [PlayerLeft(player=action.player)]
    following = evolve.replay(state, events)
    remaining = following.active()
    if len(remaining) < MIN_PLAYERS or state.current == action.player:
        events.extend(_next_turn(following, action.player))
    return events


def decide_stop(state: State, action: Stop) -> list[Event]:
    return [GameEnded(winners=[], reason="stopped", ranking=state.ranking())]
