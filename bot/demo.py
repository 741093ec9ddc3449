"""``python -m bot demo maya|mia``: a whole game among CPU players, told in the terminal.

The public lines are the very texts the bot posts in a channel; each CPU's private dice
are shown too, marked as private, so a newcomer sees both sides of the cup.
"""

from __future__ import annotations

import random

from bot.games import REGISTRY, maya
from bot.i18n import t
from bot.table import CPU_LEVELS, CPU_NAMES
from cogs.maya import render

MAYA = REGISTRY["maya"]
PARTY_ROUNDS = 12  # the party preset never ends by itself: the demo stops after this many


def run(game: str, *, seed: int = 1, players: int = 4, lang: str = "fr") -> int:
    rng = random.Random(seed)
    preset = maya.VIES if game == "mia" else maya.SOIREE
    rules = maya.Rules.for_preset(preset)
    ids = list(range(1, players + 1))
    names = {p: CPU_NAMES[p - 1] for p in ids}
    levels = {p: CPU_LEVELS[(p - 1) % len(CPU_LEVELS)] for p in ids}

    def name(player: int) -> str:
        return names[player]

    state = maya.new_game(ids, rules)
    print(f"🎲 {render.game_label(rules, lang)} — {render.preset_label(rules, lang)}")
    print("   " + ", ".join(f"{names[p]} ({t(lang, 'level.' + levels[p])})" for p in ids))
    while not state.over:
        if not rules.lives and state.round >= PARTY_ROUNDS and state.phase == maya.OPEN:
            state, events = maya.apply(state, maya.Stop())
            _tell(events, rules, name, lang)
            break
        player = state.current
        assert player is not None
        action = MAYA.cpu_action(state, player, levels[player], rng)
        assert action is not None  # the player to act always has a turn action
        state, events = maya.apply(state, action)
        _tell(events, rules, name, lang)
    print()
    for seat in state.seats:
        score = f"{seat.lives} ❤️" if rules.lives else f"{seat.sips} 🍺 · {seat.glasses} 🥃"
        print(f"   {names[seat.player]}: {score}")
    return 0


def _tell(events: list[maya.Event], rules: maya.Rules, name: render.Names, lang: str) -> None:
    for line in render.public_lines(events, rules, name, lang):
        print(line.replace("**", ""))
    for event in events:
        if event.type == "dice" and event.visibility == maya.PRIVATE and event.to is not None:
            dice = render.d.show(tuple(event.data["dice"]))
            private = t(lang, "demo.private", player=name(event.to))
            print(f"      🔒 [{private}] {t(lang, 'me.dice', dice=dice)}")
