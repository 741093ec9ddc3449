"""A game played alone against CPUs (``bot.table.solo``), kept as a snapshot between moves."""

from __future__ import annotations

import json
import random

from bot.games import menteur as lm
from bot.games.menteur.spec import SPEC
from bot.table.solo import SoloGame

USER = 101
CPUS = {-1: "Dédé", -2: "Josiane"}


def test_a_solo_game_restored_from_its_snapshot_is_the_same_game() -> None:
    game = SoloGame.new(SPEC, USER, CPUS, lm.Rules.for_preset(), "facile", random.Random(4))
    game.advance()
    game.play(game.legal(USER)[0])
    # Stored as JSON text (a timer's payload), then read back.
    restored = SoloGame.restore(SPEC, json.loads(json.dumps(game.snapshot())))
    assert (restored.user, restored.cpus, restored.level) == (USER, CPUS, "facile")
    assert restored.state == game.state and restored.step == game.step
    assert restored.legal(USER) == game.legal(USER)
    restored.play(restored.legal(USER)[0])
    assert restored.step > game.step
