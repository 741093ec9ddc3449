"""The bracket picture of a tournament: a readable PNG in every format and at every size,
the same for the same tournament, another one for another result, with the players'
names (never a raw id), who went on, forfeits and byes; and its attachment, drawn off the
event loop, which never fails the tournament."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

import discord
import pytest
from PIL import Image

from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    MatchStatus,
    Options,
    Tournament,
    advance,
    forfeit,
    pending_matches,
    record,
    start,
)
from bot.tournaments.hosted import RUNNING, Hosted
from cogs.tournoi import picture
from cogs.tournoi.picture import (
    ADVANCING,
    BOX_PADDING,
    CHAMPION,
    CHECK_WIDTH,
    FORFEIT,
    LINE_HEIGHT,
    MAX_WIDTH,
    MUTED,
    Layout,
    bracket_file,
    bracket_picture,
    layout,
    player_name,
)
from tests.tournaments.play import entrants, play_out, play_round, script

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = {
    1: "Alice",
    2: "Bob",
    3: "Chloé",
    4: "Dédé",
    5: "Émile",
    6: "<@6>",
    7: "Gus 🎲",
    8: "François-Xavier de la Tour d'Auvergne",
}


def hosted(tournament: Tournament, names: dict[int, str] | None = None, lang: str = "fr") -> Hosted:
    game = "menteur" if tournament.format == POOLS else "yades"
    return Hosted(
        game=game,
        organizer=1,
        lang=lang,
        rules={},
        options=tournament.options,
        signup_ends=0.0,
        round_seconds=600.0,
        status=RUNNING,
        entrants=tuple(e.player for e in tournament.entrants),
        names=NAMES if names is None else names,
        tournament=tournament,
    )


def one_more_result(tournament: Tournament) -> Tournament:
    """The first match still to play decided, its last seat winning."""
    match = pending_matches(tournament)[0]
    return record(tournament, match.id, match.present[::-1])


# Each tournament, and the same one with one result more or another result.
def elimination_mid() -> tuple[Tournament, Tournament]:
    t = forfeit(start(entrants(8), Options(SINGLE_ELIMINATION)), "1-2", [4])
    t = advance(play_round(t))
    return t, one_more_result(t)


def elimination_over() -> tuple[Tournament, Tournament]:
    t = start(entrants(8), Options(SINGLE_ELIMINATION))
    return play_out(t), play_out(t, script({"1-1": (8, 1)}))


def swiss() -> tuple[Tournament, Tournament]:
    t = advance(play_round(start(entrants(6), Options(SWISS))))
    return t, one_more_result(t)


def pools() -> tuple[Tournament, Tournament]:
    t = start(entrants(12), Options(POOLS, seats=4, qualifiers=2))
    return play_out(t), play_out(t, script({"1-1": (12, 7, 6, 1)}))


def big() -> tuple[Tournament, Tournament]:
    t = advance(play_round(start(entrants(64), Options(SINGLE_ELIMINATION))))
    return t, one_more_result(t)


CASES: dict[str, Callable[[], tuple[Tournament, Tournament]]] = {
    "elimination_mid": elimination_mid,
    "elimination_over": elimination_over,
    "swiss": swiss,
    "pools": pools,
    "big": big,
}


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.getcolors(maxcolors=1 << 20) or ()}


def boxes_of(drawn: Layout, title: str) -> list[list[str]]:
    """The texts of each box of the column titled ``title``."""
    column = next(c for c in drawn.columns if c.title == title)
    return [[line.text for line in b.lines] for b in drawn.boxes if b.left == column.left]


@pytest.mark.parametrize("case", CASES)
def test_a_valid_png_of_a_size_readable_on_a_phone(case):
    tournament, _ = CASES[case]()
    drawn = layout(hosted(tournament), "fr")
    image = open_png(bracket_picture(hosted(tournament), "fr"))
    assert image.mode == "RGB"
    assert image.size == (drawn.width, drawn.height)
    width, height = image.size
    assert 400 <= width <= MAX_WIDTH
    # as tall as its longest column, a line or a box of two lines per match
    most = max(len(r.matches) for r in tournament.rounds)
    assert 30 * most < height < 120 + 140 * most
    assert len(colours(image)) > 10  # a drawing, not a blank page


@pytest.mark.parametrize("case", CASES)
def test_the_same_tournament_gives_the_same_picture_and_a_result_another(case):
    tournament, changed = CASES[case]()
    before = bracket_picture(hosted(tournament), "fr")
    again = Tournament.from_json(json.loads(json.dumps(tournament.to_json())))
    assert bracket_picture(hosted(again, dict(NAMES)), "fr") == before
    assert bracket_picture(hosted(changed), "fr") != before


@pytest.mark.parametrize("case", CASES)
def test_the_players_names_are_drawn(case):
    tournament, _ = CASES[case]()
    texts = layout(hosted(tournament), "fr").texts()
    assert {"Alice", "Bob", "Chloé", "Dédé"} <= set(texts)
    others = {player: f"Someone{player}" for player in NAMES}
    assert bracket_picture(hosted(tournament, others), "fr") != bracket_picture(
        hosted(tournament), "fr"
    )


def test_a_player_without_a_name_is_numbered_never_a_raw_id():
    first = 123456789012345678
    tournament = start(entrants(8, first), Options(SINGLE_ELIMINATION))
    unnamed = hosted(tournament, {first: "<@123456789012345678>", first + 1: "🎲🎲"})
    texts = layout(unnamed, "fr").texts()
    assert "Joueur n° 5678" in texts and "Joueur n° 5679" in texts
    assert not any(str(first)[:8] in text for text in texts)
    assert player_name(unnamed, first + 7, "en") == "Player #5685"
    assert player_name(hosted(tournament, {first: "<@!1> Zoë  la <@2>Reine"}), first, "fr") == (
        "Zoë la Reine"
    )
    assert player_name(hosted(tournament), 6, "fr") == "Joueur n° 6"  # "<@6>": a mention
    assert player_name(hosted(tournament), 7, "fr") == "Gus 🎲"  # the font leaves the die out


def test_single_elimination_rounds_are_columns_joined_match_to_match():
    tournament, _ = elimination_mid()
    drawn = layout(hosted(tournament), "fr")
    assert [c.title for c in drawn.columns] == ["Ronde 1", "Ronde 2", "Finale"]
    assert [c.current for c in drawn.columns] == [False, True, False]
    english = layout(hosted(tournament, lang="en"), "en")
    assert [c.title for c in english.columns] == ["Round 1", "Round 2", "Final"]
    assert boxes_of(drawn, "Ronde 1") == [
        ["Alice", "François-Xavier de la Tour d'Auvergne"],
        ["Dédé", "Émile"],
        ["Bob", "Gus 🎲"],
        ["Chloé", "Joueur n° 6"],
    ]
    assert boxes_of(drawn, "Ronde 2") == [["Alice", "Émile"], ["Bob", "Chloé"]]
    assert boxes_of(drawn, "Finale") == [["—", "—"]]  # upcoming: empty slots
    # Each match is joined to the one it feeds, which sits halfway between its two.
    assert len(drawn.links) == 4 + 2
    by_left = sorted({b.left for b in drawn.boxes})
    for link in drawn.links:
        (x0, y0), *_, (x1, y1) = link.points
        fed = next(b for b in drawn.boxes if b.right == x0 and (b.top + b.bottom) // 2 == y0)
        into = next(b for b in drawn.boxes if b.left == x1 and (b.top + b.bottom) // 2 == y1)
        assert by_left.index(into.left) == by_left.index(fed.left) + 1
    rounds = [sorted((b for b in drawn.boxes if b.left == x), key=lambda b: b.top) for x in by_left]
    for earlier, later in pairwise(rounds):
        for number, box in enumerate(later):
            a, b = earlier[2 * number], earlier[2 * number + 1]
            assert abs((box.top + box.bottom) - (a.top + a.bottom + b.top + b.bottom) // 2) <= 2
    lit = [link.lit for link in drawn.links]
    assert lit == [True] * 4 + [False] * 2  # the winners of round 1 came through


def test_who_goes_on_forfeits_and_byes_are_marked():
    tournament, _ = elimination_mid()
    drawn = layout(hosted(tournament), "fr")
    first = drawn.boxes[:4]
    assert [[(line.text, line.advancing, line.forfeited) for line in b.lines] for b in first][
        1
    ] == [("Dédé", False, True), ("Émile", True, False)]
    assert [line.text for b in first for line in b.lines if line.advancing] == [
        "Alice",
        "Émile",
        "Bob",
        "Chloé",
    ]
    image = colours(open_png(bracket_picture(hosted(tournament), "fr")))
    assert FORFEIT in image and ADVANCING in image
    assert CHAMPION not in image  # nobody has won yet
    fair = advance(play_round(start(entrants(8), Options(SINGLE_ELIMINATION))))
    assert FORFEIT not in colours(open_png(bracket_picture(hosted(fair), "fr")))

    five = layout(hosted(start(entrants(5), Options(SINGLE_ELIMINATION))), "en")
    byes = [b for b in five.boxes if b.status == MatchStatus.BYE]
    assert [[line.text for line in b.lines] for b in byes] == [["Alice"], ["Bob"], ["Chloé"]]
    assert {b.tag for b in byes} == {"bye"} and all(b.lines[0].advancing for b in byes)
    assert boxes_of(five, "Round 2") == [["Alice", "—"], ["Bob", "Chloé"]]


def longest_run(image: Image.Image, y: int, left: int, right: int, colour) -> int:
    """The longest row of ``colour`` pixels on line ``y`` between ``left`` and ``right``."""
    best = run = 0
    for x in range(left, right):
        run = run + 1 if image.getpixel((x, y)) == colour else 0
        best = max(best, run)
    return best


def test_the_marks_are_drawn_where_the_lines_are():
    tournament, _ = elimination_mid()
    drawn = layout(hosted(tournament), "fr")
    image = open_png(bracket_picture(hosted(tournament), "fr")).convert("RGB")
    box = drawn.boxes[1]  # Dédé forfeits to Émile
    for number, line in enumerate(box.lines):
        top = box.top + BOX_PADDING + number * LINE_HEIGHT
        middle = top + LINE_HEIGHT // 2
        end = image.crop((box.right - CHECK_WIDTH - 4, top, box.right, top + LINE_HEIGHT))
        assert (ADVANCING in colours(end)) == line.advancing  # the ✓
        struck = longest_run(image, middle, box.left, box.left + 90, MUTED)
        assert (struck > 30) == line.forfeited  # the name struck through


def test_the_winner_of_the_final_is_crowned():
    tournament, _ = elimination_over()
    drawn = layout(hosted(tournament), "fr")
    final = drawn.boxes[-1]
    assert final.champion and [line.text for line in final.lines if line.advancing] == ["Alice"]
    assert sum(b.champion for b in drawn.boxes) == 1
    assert not any(c.current for c in drawn.columns)  # over: no round being played
    assert CHAMPION in colours(open_png(bracket_picture(hosted(tournament), "fr")))


def test_swiss_rounds_are_columns_and_the_rounds_to_pair_are_empty():
    tournament, _ = swiss()
    drawn = layout(hosted(tournament), "fr")
    assert [c.title for c in drawn.columns] == ["Ronde 1", "Ronde 2", "Ronde 3"]
    assert len(boxes_of(drawn, "Ronde 1")) == 3 and len(boxes_of(drawn, "Ronde 2")) == 3
    assert boxes_of(drawn, "Ronde 3") == [["—"]]
    assert drawn.links == ()
    winners = [line.text for b in drawn.boxes for line in b.lines if line.advancing]
    assert winners == ["Alice", "Chloé", "Émile"]  # each match's winner


def test_pools_list_a_decided_table_best_first_up_to_the_final():
    tournament, _ = pools()
    drawn = layout(hosted(tournament), "fr")
    assert [c.title for c in drawn.columns] == ["Ronde 1", "Ronde 2", "Finale"]
    first = boxes_of(drawn, "Ronde 1")
    assert [len(box) for box in first] == [4, 4, 4]
    assert first[0][:2] == ["Alice", "Joueur n° 6"]  # the two qualifiers, first
    _, upset = pools()
    # Table 1-1 seats Alice, 6, Gus and 12: once decided, drawn in its order.
    assert boxes_of(layout(hosted(upset), "fr"), "Ronde 1")[0] == [
        "Joueur n° 12",
        "Gus 🎲",
        "Joueur n° 6",
        "Alice",
    ]
    pending = start(entrants(12), Options(POOLS, seats=4, qualifiers=2))
    assert boxes_of(layout(hosted(pending), "fr"), "Ronde 1")[0] == [
        "Alice",
        "Joueur n° 6",
        "Gus 🎲",
        "Joueur n° 12",
    ]
    qualified = [line.text for b in drawn.boxes[:3] for line in b.lines if line.advancing]
    assert len(qualified) == 6
    (final,) = boxes_of(drawn, "Finale")
    assert len(final) == 4 and final[0] == "Alice"
    assert drawn.boxes[-1].champion
    assert [line.advancing for line in drawn.boxes[-1].lines] == [True, False, False, False]


def test_a_64_player_bracket_fits_the_width_and_grows_in_height():
    tournament, _ = big()
    drawn = layout(hosted(tournament), "fr")
    assert len(drawn.columns) == 6 and drawn.columns[-1].title == "Finale"
    assert [len(boxes_of(drawn, c.title)) for c in drawn.columns] == [32, 16, 8, 4, 2, 1]
    assert drawn.width <= MAX_WIDTH
    eight = layout(hosted(elimination_mid()[0]), "fr")
    assert drawn.height > 6 * eight.height  # 32 matches in a column, not 4
    texts = drawn.texts()
    assert "Joueur n° 64" in texts and "François-Xavier de la Tour d'Auvergne" in texts


def test_a_bigger_bracket_starts_at_the_current_round():
    t = start(entrants(128), Options(SINGLE_ELIMINATION))
    opening = layout(hosted(t), "fr")
    assert [c.title for c in opening.columns][:2] == ["Ronde 1", "Ronde 2"]
    assert len(opening.columns) == 7 and opening.width <= MAX_WIDTH
    later = layout(hosted(advance(play_round(t))), "fr")
    assert [c.title for c in later.columns] == [f"Ronde {n}" for n in range(2, 7)] + ["Finale"]
    assert len(boxes_of(later, "Ronde 2")) == 32 and later.height < opening.height


def test_many_swiss_rounds_keep_the_current_one_within_the_width():
    t = start(entrants(20), Options(SWISS, rounds=12))
    for _ in range(9):
        t = advance(play_round(t))
    drawn = layout(hosted(t), "fr")
    assert drawn.width <= MAX_WIDTH
    titles = [c.title for c in drawn.columns]
    assert titles == [f"Ronde {n}" for n in range(5, 13)]
    assert [c.current for c in drawn.columns].index(True) == titles.index("Ronde 10")


def test_long_names_are_cut_not_widening_the_picture():
    tournament, _ = elimination_mid()
    long_names = {player: "W" * 80 for player in NAMES}
    image = open_png(bracket_picture(hosted(tournament, long_names), "fr"))
    assert image.size == open_png(bracket_picture(hosted(tournament, {}), "fr")).size


async def test_the_attachment_is_drawn_off_the_loop_as_tableau_png():
    tournament, _ = elimination_mid()
    running = hosted(tournament)
    attached = await bracket_file(running)
    assert isinstance(attached, discord.File)
    assert attached.filename == "tableau.png"
    assert attached.fp.read() == bracket_picture(running, "fr")
    assert await bracket_file(replace(running, tournament=None)) is None


async def test_a_failed_drawing_is_logged_and_gives_no_attachment(monkeypatch, caplog):
    def broken(hosted: Hosted, lang: str) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr(picture, "bracket_picture", broken)
    with caplog.at_level(logging.WARNING, logger="cogs.tournoi.picture"):
        assert await bracket_file(hosted(elimination_mid()[0])) is None
    assert "the bracket picture failed" in caplog.text
