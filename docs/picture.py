"""Draws docs/yades-feuille.png, the README's picture of a table: the Yadès sheet the bot
sends (``/yades feuille``), here for two CPU players halfway through a duel.

    .venv/bin/python docs/picture.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import yades_tables
from bot.games import yades as y
from bot.games.yades.metrics import YadesSetup
from bot.games.yades.spec import SPEC
from cogs.yades.picture import sheet_picture

TURNS = 7  # each player's boxes filled before the picture


def main() -> None:
    setup = YadesSetup(y.Rules.for_preset(y.YADES), 0)
    yades_tables.load(setup.rules, yades_tables.SHIPPED, build=False)
    rng = random.Random(7)
    players = [1, 2]
    state = SPEC.new_game(players, setup)
    scored = 0
    while scored < TURNS * len(players):
        action = SPEC.forced(state, rng) or SPEC.cpu_action(state, state.current, "difficile", rng)
        state, events = SPEC.apply(state, action)
        scored += sum(isinstance(event, y.Scored) for event in events)
    picture = sheet_picture(SPEC.view(state, None), {1: "Alice", 2: "Dédé"}, "fr")
    target = Path(__file__).with_name("yades-feuille.png")
    target.write_bytes(picture)
    print(f"{target}: {len(picture)} bytes")


if __name__ == "__main__":
    main()
