"""What the table layer needs to know about each game, behind one interface.

``bot/tables.py`` runs any game whose engine follows the house API (``new_game``,
``legal_actions``, ``apply``, ``complete``, ``State.to_json/from_json``): a ``GameKind``
adds the few game-specific answers a table needs — how to rebuild the rules, which
actions the CPU may take for a seat, how to make a player leave or stop the game, who
is still at the table, and what a finished game adds to the leaderboards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from bot import stats
from bot.engine import maya
from bot.engine import menteur as lm
from bot.engine import yades as y
from bot.engine.cpu import maya as cpu_maya
from bot.engine.cpu import menteur as cpu_menteur
from bot.engine.cpu import yades as cpu_yades


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game, for the leaderboards: figures per human, and their final places."""

    game: str  # leaderboard key
    figures: dict[int, dict[str, float]]
    ranking: list[list[int]]  # tied groups, best first


class GameKind(Protocol):
    name: str
    min_players: int
    max_players: int

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def rules_from_json(self, raw: Mapping[str, Any]) -> Any: ...

    def state_from_json(self, raw: dict[str, Any]) -> Any: ...

    def new_game(self, players: list[int], rules: Any) -> Any: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...

    def in_game(self, state: Any, player: int) -> bool:
        """Seated and not gone (eliminated players still count: they watch the end)."""
        ...

    def still_here(self, state: Any, player: int) -> bool:
        """At the table in any way, eliminated included: False once they left."""
        ...

    def cpu_action(self, state: Any, player: int, level: str, rng: random.Random) -> Any | None:
        """The CPU policy's move for ``player`` now, dice filled; None if it has none."""
        ...

    def forced(self, state: Any, rng: random.Random) -> Any | None:
        """A step nobody decides that must follow ``state`` (dealing a round), dice filled."""
        ...

    def leave(self, player: int) -> Any: ...

    def stop(self) -> Any: ...

    def ended_by_stop(self, events: Sequence[Any]) -> bool: ...

    def outcome(
        self, state: Any, logged: list[dict[str, Any]], humans: list[int], rules: Any = None
    ) -> Outcome:
        """``rules``: the table's rules (what the table agreed beyond the engine's, e.g. a stake)."""
        ...


class MayaKind:
    """Maya (party preset) and Mia (lives preset)."""

    name = "maya"
    min_players = maya.MIN_PLAYERS
    max_players = maya.MAX_PLAYERS

    def rules_to_json(self, rules: maya.Rules) -> dict[str, Any]:
        return asdict(rules)

    def rules_from_json(self, raw: Mapping[str, Any]) -> maya.Rules:
        return maya.Rules(**raw).validated()

    def state_from_json(self, raw: dict[str, Any]) -> maya.State:
        return maya.State.from_json(raw)

    def new_game(self, players: list[int], rules: maya.Rules) -> maya.State:
        return maya.new_game(players, rules)

    def apply(self, state: maya.State, action: maya.Action) -> tuple[maya.State, list[maya.Event]]:
        return maya.apply(state, action)

    def in_game(self, state: maya.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status in (maya.IN, maya.WAITING)

    def still_here(self, state: maya.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status != maya.LEFT

    def cpu_action(
        self, state: maya.State, player: int, level: str, rng: random.Random
    ) -> maya.Action | None:
        legal = maya.turn_actions(state, player)
        if not legal:
            return None
        choice = cpu_maya.choose(maya.view(state, player), legal, level, rng)
        return maya.complete(state, choice, rng)

    def forced(self, state: maya.State, rng: random.Random) -> None:
        return None

    def leave(self, player: int) -> maya.Action:
        return maya.Leave(player)

    def stop(self) -> maya.Action:
        return maya.Stop()

    def ended_by_stop(self, events: Sequence[maya.Event]) -> bool:
        return any(e.type == "game_ended" for e in events)

    def outcome(
        self,
        state: maya.State,
        logged: list[dict[str, Any]],
        humans: list[int],
        rules: Any = None,
    ) -> Outcome:
        figures = {
            player: numbers
            for player, numbers in stats.maya_figures(logged, humans).items()
            if player in humans
        }
        eliminated = [e["data"]["player"] for e in logged if e["type"] == "eliminated"]
        ranking = stats.maya_ranking(
            figures, lives=state.rules.lives, eliminated_order=eliminated, winner=state.winner
        )
        return Outcome(
            game="mia" if state.rules.lives else "maya",
            figures={p: numbers.as_dict() for p, numbers in figures.items()},
            ranking=ranking,
        )


@dataclass(frozen=True, slots=True)
class YadesSetup:
    """A Yadès table's rules: the engine's sheet, and the stake (*mise*) of a challenge.

    The stake is in leaderboard points: when a game with a stake ends with one winner,
    the winner's ``stake_won`` and every other human's ``stake_lost`` grow by it (RULES.md
    §2); a shared win moves no stake.
    """

    rules: y.Rules
    mise: int = 0


# The CPU levels of the tables (Maya's words) and the Yadès CPU they play.
YADES_LEVELS = {"facile": cpu_yades.FACILE, "moyen": cpu_yades.MOYEN, "difficile": cpu_yades.EXPERT}


class YadesKind:
    """Yadès (preset ``yades``) and Yahtzee (preset ``classique``)."""

    name = "yades"
    min_players = y.MIN_PLAYERS
    max_players = y.MAX_PLAYERS

    def rules_to_json(self, rules: YadesSetup) -> dict[str, Any]:
        return {"rules": rules.rules.to_json(), "mise": rules.mise}

    def rules_from_json(self, raw: Mapping[str, Any]) -> YadesSetup:
        return YadesSetup(y.Rules.from_json(raw["rules"]), int(raw.get("mise", 0)))

    def state_from_json(self, raw: dict[str, Any]) -> y.State:
        return y.State.from_json(raw)

    def new_game(self, players: list[int], rules: YadesSetup) -> y.State:
        return y.new_game(players, rules.rules)

    def apply(self, state: y.State, action: y.Action) -> tuple[y.State, list[maya.Event]]:
        return y.apply(state, action)

    def in_game(self, state: y.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status == y.IN

    def still_here(self, state: y.State, player: int) -> bool:
        return self.in_game(state, player)

    def cpu_action(
        self, state: y.State, player: int, level: str, rng: random.Random
    ) -> y.Action | None:
        legal = y.legal_actions(state, player)
        if not cpu_yades.acts(legal):
            return None
        choice = cpu_yades.choose(state, legal, YADES_LEVELS.get(level, level), rng)
        return y.complete(state, choice, rng)

    def forced(self, state: y.State, rng: random.Random) -> None:
        return None

    def leave(self, player: int) -> y.Action:
        return y.Leave(player)

    def stop(self) -> y.Action:
        return y.Stop()

    def ended_by_stop(self, events: Sequence[maya.Event]) -> bool:
        return any(e.type == "game_ended" for e in events)

    def outcome(
        self,
        state: y.State,
        logged: list[dict[str, Any]],
        humans: list[int],
        rules: Any = None,
    ) -> Outcome:
        totals = {seat.player: y.totals(state, seat.player).total for seat in state.seats}
        lost = points_lost(state, logged, humans)
        figures: dict[int, dict[str, float]] = {}
        for player in humans:
            total = totals.get(player, 0)
            figures[player] = {
                "games": 1,
                "wins": 1 if player in state.winners else 0,
                "best_score": total,
                "total_score": total,
                "yades_rolled": sum(
                    1
                    for e in logged
                    if e["type"] == "rolled"
                    and e["data"]["player"] == player
                    and y.is_five_of_a_kind(e["data"]["dice"])
                ),
                "points_lost": round(lost.get(player, 0.0), 1),
            }
        mise = rules.mise if isinstance(rules, YadesSetup) else 0
        if mise and len(state.winners) == 1 and state.winners[0] in figures:
            for player, numbers in figures.items():
                key = "stake_won" if player in state.winners else "stake_lost"
                numbers[key] = mise
        return Outcome(game="yades", figures=figures, ranking=yades_ranking(state, humans))


def yades_ranking(state: y.State, humans: list[int]) -> list[list[int]]:
    """The humans by final total, best first (equal totals share a place); those who left
    come last, together."""
    staying: dict[int, list[int]] = {}
    gone = []
    for seat in state.seats:
        if seat.player not in humans:
            continue
        if seat.status != y.IN:
            gone.append(seat.player)
            continue
        staying.setdefault(y.totals(state, seat.player).total, []).append(seat.player)
    ranking = [staying[total] for total in sorted(staying, reverse=True)]
    return ranking + ([gone] if gone else [])


def points_lost(
    state: y.State, logged: list[dict[str, Any]], humans: list[int]
) -> dict[int, float]:
    """Per human: the expected points their decisions lost against perfect play.

    The game is replayed from its first state; before each roll after the first and each
    box filled by a human, ``cpu.yades.advice`` prices the choice made. A turn the CPU
    played for an absent player counts as theirs.
    """
    current = y.new_game([seat.player for seat in state.seats], state.rules)
    lost = dict.fromkeys(humans, 0.0)
    for entry in logged:
        kind, data = entry["type"], entry["data"]
        player = data.get("player")
        if player in lost and current.current == player and current.rolls > 0:
            chosen: y.Action | None = None
            if kind == "rolled":
                chosen = y.Roll(player, tuple(data["kept"]))
            elif kind == "scored":
                chosen = y.Score(player, data["box"])
            if chosen is not None:
                lost[player] += _loss(current, player, chosen)
        if kind in ("rolled", "scored", "bonus_earned", "turn_passed", "player_left"):
            current = y.replay(current, [maya.Event(kind, data)])
    return lost


def _loss(state: y.State, player: int, chosen: y.Action) -> float:
    def kept(action: y.Roll) -> list[int]:
        # Keeping a 2 from the first or the third position is the same choice.
        assert state.dice is not None
        return sorted(state.dice[i] for i in y.kept_positions(action.keep))

    for advice in cpu_yades.advice(state, player):
        action = advice.action
        same_box = (
            isinstance(chosen, y.Score) and isinstance(action, y.Score) and action.box == chosen.box
        )
        same_keep = (
            isinstance(chosen, y.Roll)
            and isinstance(action, y.Roll)
            and kept(action) == kept(chosen)
        )
        if same_box or same_keep:
            return advice.loss
    return 0.0


class MenteurKind:
    """Dés du menteur (Liar's dice): RULES.md §3."""

    name = "menteur"
    min_players = lm.MIN_PLAYERS
    max_players = lm.MAX_PLAYERS

    def rules_to_json(self, rules: lm.Rules) -> dict[str, Any]:
        return rules.to_json()

    def rules_from_json(self, raw: Mapping[str, Any]) -> lm.Rules:
        return lm.Rules.from_json(dict(raw))

    def state_from_json(self, raw: dict[str, Any]) -> lm.State:
        return lm.State.from_json(raw)

    def new_game(self, players: list[int], rules: lm.Rules) -> lm.State:
        return lm.new_game(players, rules)

    def apply(self, state: lm.State, action: lm.Action) -> tuple[lm.State, list[maya.Event]]:
        return lm.apply(state, action)

    def in_game(self, state: lm.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status in (lm.IN, lm.OUT)

    def still_here(self, state: lm.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status != lm.LEFT

    def cpu_action(
        self, state: lm.State, player: int, level: str, rng: random.Random
    ) -> lm.Action | None:
        legal = lm.turn_actions(state, player)
        if not cpu_menteur.acts(legal):
            return None
        choice = cpu_menteur.choose(lm.view(state, player), legal, level, rng)
        return lm.complete(state, choice, rng)

    def forced(self, state: lm.State, rng: random.Random) -> lm.Action | None:
        # A round to start: everyone's dice are rolled at once (the roll is nobody's decision).
        if state.over or state.phase != lm.ROLL or state.current is None:
            return None
        return lm.complete(state, lm.Roll(state.current), rng)

    def leave(self, player: int) -> lm.Action:
        return lm.Leave(player)

    def stop(self) -> lm.Action:
        return lm.Stop()

    def ended_by_stop(self, events: Sequence[maya.Event]) -> bool:
        return any(e.type == "game_ended" for e in events)

    def outcome(
        self,
        state: lm.State,
        logged: list[dict[str, Any]],
        humans: list[int],
        rules: Any = None,
    ) -> Outcome:
        return Outcome(
            game="menteur",
            figures=menteur_figures(state, logged, humans),
            ranking=menteur_ranking(state, logged, humans),
        )


def menteur_figures(
    state: lm.State, logged: list[dict[str, Any]], humans: list[int]
) -> dict[int, dict[str, float]]:
    """Per human: games, wins, dice lost, challenges won and lost (as the challenger)."""
    figures: dict[int, dict[str, float]] = {
        player: {
            "games": 1,
            "wins": 1 if state.winner == player else 0,
            "dice_lost": 0,
            "challenges_won": 0,
            "challenges_lost": 0,
        }
        for player in humans
    }
    for entry in logged:
        kind, data = entry["type"], entry["data"]
        if kind == "die_lost" and data["player"] in figures:
            figures[data["player"]]["dice_lost"] += 1
        elif kind == "revealed" and data["challenger"] in figures:
            key = "challenges_lost" if data["holds"] else "challenges_won"
            figures[data["challenger"]][key] += 1
    return figures


def menteur_ranking(
    state: lm.State, logged: list[dict[str, Any]], humans: list[int]
) -> list[list[int]]:
    """The humans by elimination order, last out best; the winner first; those who left
    last, together; CPU seats never count."""
    out = [
        entry["data"]["player"]
        for entry in logged
        if entry["type"] in ("eliminated", "player_left")
    ]
    ranking: list[list[int]] = []
    if state.winner in humans:
        ranking.append([state.winner])
    standing = [
        seat.player
        for seat in state.seats
        if seat.player in humans and seat.player != state.winner and seat.player not in out
    ]
    if standing:  # a stopped game: those still in share a place
        ranking.append(standing)
    left = {entry["data"]["player"] for entry in logged if entry["type"] == "player_left"}
    seen: set[int] = set()
    for player in reversed(out):
        if player in humans and player not in left and player not in seen:
            seen.add(player)
            ranking.append([player])
    gone = [p for p in humans if p in left and p != state.winner]
    return ranking + ([gone] if gone else [])


GAMES: dict[str, GameKind] = {
    "maya": MayaKind(),
    "yades": YadesKind(),
    "menteur": MenteurKind(),
}
