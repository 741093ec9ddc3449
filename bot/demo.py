"""``python -m bot demo GAME``: a whole game among CPU players, told in the terminal.

The public lines are the very texts the bot posts in a channel; each CPU's private dice
are shown too, marked as private, so a newcomer sees both sides of the cup. Every game
registered in ``bot.games.REGISTRY`` has its demos, declared by its Discord package
(``cogs.<game>.DEMOS``); the game is played through its ``GameSpec`` and seen through its
public view, as a channel sees it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.interactions.packages import declared
from bot.kernel.events import Event
from bot.kernel.spec import GameSpec
from bot.table import CPU_LEVELS, CPU_NAMES

MAX_STEPS = 20_000  # far more moves than any game among CPUs needs


Names = Callable[[int], str]


def _never(view: Any) -> bool:
    return False


def _nothing(rules: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Demo:
    rules: Any  # the table's rules (a preset)
    title: Callable[[Any, str], str]  # (rules, lang) -> the table's heading
    story: Callable[[Sequence[Event], Any, Names, str], list[str]]
    """(events, the public view after them, names, lang) -> the lines posted in the channel"""
    private: Callable[[Event, str], str | None]
    """(a private event, lang) -> what its player alone reads (None: nothing to show)"""
    tally: Callable[[Any, Names, str], list[str]]
    """(the public view at the end, names, lang) -> each player's final standing"""
    enough: Callable[[Any], bool] = _never
    """(the public view) -> True when a game that never ends by itself should stop here"""
    prepare: Callable[[Any], None] = _nothing
    """(rules) -> None: what the bot does before its CPUs play (read the tables they use)"""


def demos() -> dict[str, tuple[GameSpec[Any, Any, Any], Demo]]:
    """Every demo by its name, with its game, in the registry's order."""
    return {name: (spec, demo) for spec, named in declared("DEMOS") for name, demo in named.items()}


def run(game: str, *, seed: int = 1, players: int = 4, lang: str = "fr") -> int:
    spec, demo = demos()[game]
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    names = {p: CPU_NAMES[p - 1] for p in ids}
    levels = {p: CPU_LEVELS[(p - 1) % len(CPU_LEVELS)] for p in ids}

    def name(player: int) -> str:
        return names[player]

    def tell(events: Sequence[Event]) -> None:
        public = spec.view(state, None)
        for line in demo.story(events, public, name, lang):
            print(line.replace("**", ""))
        for event in events:
            if event.visible_to(None) or event.to is None or not event.visible_to(event.to):
                continue
            private = demo.private(event, lang)
            if private is not None:
                heading = t(lang, "demo.private", player=name(event.to))
                print(f"      🔒 [{heading}] {private}")

    demo.prepare(demo.rules)
    state = spec.new_game(ids, demo.rules)
    print(f"🎲 {demo.title(demo.rules, lang)}")
    print("   " + ", ".join(f"{names[p]} ({t(lang, 'level.' + levels[p])})" for p in ids))
    for _ in range(MAX_STEPS):
        if spec.outcome(state) is not None:
            break
        action = spec.forced(state, rng)
        if action is None and demo.enough(spec.view(state, None)):
            action = spec.stop()
        if action is None:
            player = state.current
            if player is None:
                raise RuntimeError(f"{spec.name}: no one to play and nothing forced")
            action = spec.cpu_action(state, player, levels[player], rng)
            if action is None:
                raise RuntimeError(f"{spec.name}: the CPU to play has no move")
        state, events = spec.apply(state, action)
        tell(events)
    else:
        raise RuntimeError(f"{spec.name}: no end after {MAX_STEPS} moves")
    print()
    for line in demo.tally(spec.view(state, None), name, lang):
        print(f"   {line}".replace("**", ""))
    return 0
