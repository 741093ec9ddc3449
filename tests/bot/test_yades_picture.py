"""The Yadès score sheets picture: a readable PNG for every table size, preset and moment."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.games import yades
from bot.i18n import keys
from cogs.yades.picture import _player_name, sheet_picture


def picture(state: yades.State, names: dict[int, str], lang: str) -> bytes:
    """The picture of ``state`` as the channel sees it."""
    return sheet_picture(yades.view(state, None), names, lang)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = {
    1: "Émilie",
    2: "<@123456789>",
    3: "Zoë 🎲",
    4: "François-Xavier de la Tour d'Auvergne",
    5: "bob",
    6: "Çà et là",
}


def play(players: int, preset: str, seed: int, turns: int | None = None) -> yades.State:
    """A game played through the engine with a seeded rng, stopped after ``turns`` scores
    (``None``: to the end). Nobody leaves."""
    rng = random.Random(seed)
    state = yades.new_game(list(range(1, players + 1)), yades.Rules.for_preset(preset))
    scored = 0
    while not state.over and (turns is None or scored < turns):
        player = state.current
        assert player is not None
        actions = [a for a in yades.legal_actions(state, player) if type(a) is not yades.Leave]
        scores = [a for a in actions if type(a) is yades.Score]
        rolls = [a for a in actions if type(a) is yades.Roll]
        if scores and (not rolls or rng.random() < 0.35):
            points = yades.scores(state, player)
            best = max(scores, key=lambda a: points[a.box])
            action: yades.Action = best if rng.random() < 0.8 else rng.choice(scores)
            scored += 1
        else:
            action = rng.choice(rolls)
        state, _ = yades.apply(state, yades.complete(state, action, rng))
    return state


def stage(players: int, preset: str, moment: str, seed: int = 7) -> yades.State:
    boxes = len(yades.PRESET_SHEETS[preset].boxes)
    turns = {"start": 0, "mid": players * boxes // 2, "end": None}[moment]
    state = play(players, preset, seed, turns)
    assert state.over == (moment == "end")
    return state


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("moment", ["start", "mid", "end"])
@pytest.mark.parametrize("preset", yades.PRESETS)
@pytest.mark.parametrize("players", [2, 6])
def test_a_valid_png_readable_in_discord(players, preset, moment):
    state = stage(players, preset, moment)
    image = open_png(picture(state, NAMES, "fr"))
    assert image.mode == "RGB"
    width, height = image.size
    assert 560 <= width <= 900
    # a header and a row per box, plus the subtotals, the bonus and the total
    rows = len(state.sheet.boxes) + 4
    assert 32 * rows < height < 32 * (rows + 4)
    # not a blank picture: a real drawing with several colours
    assert len(image.getcolors(maxcolors=1 << 16) or ()) > 10


@pytest.mark.parametrize("preset", yades.PRESETS)
@pytest.mark.parametrize("players", [2, 6])
def test_different_states_give_different_pictures(players, preset):
    pictures = [
        picture(stage(players, preset, moment), NAMES, "fr") for moment in ("start", "mid", "end")
    ]
    assert len(set(pictures)) == 3
    other_game = picture(stage(players, preset, "end", seed=8), NAMES, "fr")
    assert other_game not in pictures


def test_every_move_changes_the_picture_and_the_picture_is_deterministic():
    state = stage(2, yades.YADES, "mid")
    before = picture(state, NAMES, "fr")
    assert picture(state.copy(), dict(NAMES), "fr") == before
    player = state.current
    assert player is not None
    rng = random.Random(1)
    state, _ = yades.apply(state, yades.complete(state, yades.Roll(player), rng))
    box = yades.legal_actions(state, player)[-2]  # a Score (the last action is Leave)
    assert type(box) is yades.Score
    after, _ = yades.apply(state, box)
    assert picture(after, NAMES, "fr") != before


def test_the_language_and_the_names_show():
    state = stage(2, yades.CLASSIQUE, "mid")
    french = picture(state, NAMES, "fr")
    assert picture(state, NAMES, "en-US") != french
    assert picture(state, NAMES, "en") == picture(state, NAMES, "en-GB")
    assert picture(state, {1: "Alice", 2: "Bob"}, "fr") != french


def test_names_are_readable_without_mentions_nor_missing_glyphs():
    assert _player_name("Émilie", 1, "fr").plain == "Emilie"
    assert _player_name("Émilie", 1, "fr").marks == ((0, "acute"),)
    assert _player_name("<@123456>", 2, "fr").plain == "Joueur 2"
    assert _player_name("<@!123456> Ghost", 2, "en").plain == "Ghost"
    assert _player_name("🎲🎲", 3, "en").plain == "Player 3"
    assert _player_name(None, 4, "fr").plain == "Joueur 4"
    assert _player_name("  Zoë   🎲 la  Reine ", 1, "fr").plain == "Zoe la Reine"
    assert _player_name("Zoë 🎲", 1, "fr").marks == ((2, "diaeresis"),)
    assert _player_name("Œdipe", 1, "fr").plain == "OEdipe"


def test_missing_names_and_long_names_still_draw():
    state = stage(6, yades.YADES, "mid")
    long_names = {player: "W" * 60 for player in range(1, 7)}
    image = open_png(picture(state, long_names, "fr"))
    assert image.size == open_png(picture(state, {}, "fr")).size


def test_the_current_player_and_the_leader_are_highlighted():
    state = stage(2, yades.YADES, "mid")
    image = open_png(picture(state, NAMES, "fr"))
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 16) or ()}
    assert (219, 234, 254) in colours  # the current player's column
    assert (250, 204, 21) in colours  # the leader's total
    start = open_png(picture(stage(2, yades.YADES, "start"), NAMES, "fr"))
    colours = {colour for _, colour in start.getcolors(maxcolors=1 << 16) or ()}
    assert (250, 204, 21) not in colours  # nobody leads at 0-0
    end = open_png(picture(stage(2, yades.YADES, "end"), NAMES, "fr"))
    colours = {colour for _, colour in end.getcolors(maxcolors=1 << 16) or ()}
    assert (219, 234, 254) not in colours  # nobody's turn once the game is over
    assert (250, 204, 21) in colours  # the winner


def test_bonuses_a_departure_and_a_server_sheet():
    state = yades.new_game([1, 2, 3], yades.Rules.for_preset(yades.CLASSIQUE))
    plain = open_png(picture(state, NAMES, "en"))
    first = state.seats[0]
    first.boxes.update({"as": 3, "deux": 6, "trois": 9, "quatre": 12, "cinq": 15, "six": 24})
    first.boxes.update({"yahtzee": 50, "chance": 0})
    first.five_bonus = 100
    state.seats[1].status = yades.LEFT
    image = open_png(picture(state, NAMES, "en"))
    assert image.height == plain.height + 32  # the five-of-a-kind bonus row
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 16) or ()}
    assert (22, 128, 61) in colours  # +35 and +100, earned
    assert (220, 38, 38) in colours  # the scratched chance

    rules = yades.Rules.for_preset(
        yades.YADES,
        remove=["prime_yades", "as"],
        add=[{"id": "double_paire", "kind": "of_a_kind", "count": 2}],
    )
    custom = yades.new_game([1, 2], rules)
    open_png(picture(custom, NAMES, "fr"))


def test_every_preset_box_has_a_label_in_both_languages():
    french, english = set(keys("fr")), set(keys("en"))
    for sheet in yades.PRESET_SHEETS.values():
        for box in sheet.boxes:
            assert f"y.box.{box.id}" in french
            assert f"y.box.{box.id}" in english
    picture_keys = {key for key in french if key.startswith("yades.picture.")}
    assert picture_keys == {key for key in english if key.startswith("yades.picture.")}


def _upper_at(preset: str, upper: dict[str, int]) -> yades.State:
    """Two players; the first has filled the upper boxes ``upper`` (box -> points)."""
    state = yades.new_game([1, 2], yades.Rules.for_preset(preset))
    state.seats[0].boxes.update(upper)
    return state


@pytest.mark.parametrize(("preset", "target"), [("yades", 64), ("classique", 63)])
def test_the_bonus_target_reads_the_same_in_the_picture_and_the_embed(preset, target):
    from cogs.yades.picture import _rows
    from cogs.yades.render import sheet_embed

    state = _upper_at(preset, {"as": 3, "deux": 6, "trois": 9, "quatre": 12, "cinq": 15})
    rows = [row for row in _rows(yades.view(state, None), "fr") if row.kind == "subtotal"]
    picture = [(row.label.plain, [cell.text for cell in row.cells]) for row in rows]
    bonus = next(cells for label, cells in picture if label.startswith("Prime"))
    label = next(label for label, cells in picture if label.startswith("Prime"))
    assert label == f"Prime ({target} et +)"
    assert bonus[0] == f"45/{target}"

    embed = sheet_embed(yades.view(state, None), {}, "fr")
    first = embed.fields[0].value or ""
    assert f"Haut : 45/{target} (prime à {target} et +)" in first
    # Nowhere the other number: a player on exactly 63 cannot misread the yades sheet.
    if target == 64:
        assert "63" not in label and "/63" not in bonus[0] and "/63" not in first


def test_the_sheet_names_are_names_never_a_raw_id():
    from types import SimpleNamespace

    from bot.table import Cpu, Table
    from cogs.yades.cog import sheet_names

    table = Table(
        id=1,
        guild_id=1,
        channel_id=1,
        kind="yades",
        starter=1,
        lang="fr",
        rules=None,
        players=[1, 2, -1],
        cpus={-1: Cpu("Dédé", "moyen")},
        names={1: "Alice"},  # 2 joined before names were kept
    )
    state = yades.new_game([1, 2, -1], yades.Rules.for_preset("yades"))
    asked_by_bob = SimpleNamespace(user=SimpleNamespace(id=2, display_name="Bob"))
    assert sheet_names(table, yades.view(state, None), asked_by_bob, "fr")  # type: ignore[arg-type] == {1: "Alice", 2: "Bob", -1: "Dédé"}
    asked_by_someone = SimpleNamespace(user=SimpleNamespace(id=9, display_name="Zed"))
    names = sheet_names(table, yades.view(state, None), asked_by_someone, "fr")
    assert names == {1: "Alice", 2: "Joueur 2", -1: "Dédé"}
