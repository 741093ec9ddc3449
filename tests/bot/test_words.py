"""The words where a rule is involved: how a bid, a value, the end of a game and a
command read."""

from __future__ import annotations

from bot.games import maya
from bot.i18n import mention_commands
from cogs.maya.render import maya_value, top_name
from cogs.menteur.render import bid_text
from cogs.table.endings import Out, elimination_standings

MIA = maya.Rules.for_preset("vies")
SOIREE = maya.Rules.for_preset()


def names(player: int) -> str:
    return f"<@{player}>"


def test_a_bid_reads_as_said_at_the_bar_count_in_words_then_the_value() -> None:
    assert bid_text(5, 4, "fr") == "cinq 4"
    assert bid_text(1, 6, "fr") == "un 6"
    assert bid_text(20, 2, "fr") == "vingt 2"
    assert bid_text(21, 2, "fr") == "21 2"  # past twenty, digits
    assert bid_text(1, 6, "en") == "one 6"
    assert bid_text(5, 4, "en") == "five 4s"


def test_21_is_the_maya_at_a_soiree_and_the_mia_in_mia_mode_and_doubles_read_as_doubles() -> None:
    assert maya_value(21, SOIREE, "fr") == "MAYA (21)"
    assert maya_value(21, MIA, "fr") == "MIA (21)"
    assert top_name(MIA, "en") == "Mia" and top_name(SOIREE, "en") == "Maya"
    assert [maya_value(v, MIA, "fr") for v in (11, 33, 66)] == ["double 1", "double 3", "double 6"]
    assert maya_value(53, SOIREE, "en") == "53" and maya_value(31, MIA, "fr") == "31"


def test_the_standings_of_a_game_to_the_last_one_in_put_the_winner_first_then_the_last_out() -> (
    None
):
    lines = elimination_standings(
        "fr",
        names,
        winner=2,
        standing=[(1, "1 ❤️", 1), (2, "2 ❤️", 2)],
        out=[Out(3, 2), Out(4, 5), Out(5, 6, left=True)],
    )
    assert lines == [
        "🏅 **Classement final**",
        "1. 🏆 <@2> — 2 ❤️",
        "2. <@1> — 1 ❤️",
        "3. <@4> — éliminé·e à la manche 5",
        "4. <@3> — éliminé·e à la manche 2",
        "· <@5> a quitté la table",
    ]
    # A stopped game has no winner: those still in rank by what they kept, most first.
    stopped = elimination_standings("fr", names, None, [(1, "1 ❤️", 1), (2, "3 ❤️", 3)], [])
    assert stopped == ["🏅 **Classement final**", "1. <@2> — 3 ❤️", "2. <@1> — 1 ❤️"]


def test_commands_in_a_public_text_become_mentions_each_client_names_in_its_language() -> None:
    ids = {"aide": 1, "maya": 2, "maya start": 2, "menteur": 3, "menteur rejoindre": 3}
    text = "Tape /aide, puis /maya start ; rejoignez avec /menteur rejoindre (1/3)."
    assert mention_commands(text, ids) == (
        "Tape </aide:1>, puis </maya start:2> ; rejoignez avec </menteur rejoindre:3> (1/3)."
    )
    # An English server's text names them in English: the mention is the same command.
    assert (
        mention_commands("Join with /liarsdice join.", ids) == "Join with </menteur rejoindre:3>."
    )
    # Not synced (no ids yet), unknown, or no command at all: the text stays as it is.
    assert mention_commands(text, {}) == text
    assert mention_commands("/inconnu et https://x.y/z", ids) == "/inconnu et https://x.y/z"
    assert mention_commands("/aide jeu:Maya", ids) == "</aide:1> jeu:Maya"


def test_a_double_is_read_as_the_table_says_it() -> None:
    from bot.games.maya.notation import read_announcement

    assert read_announcement(1, "double 3") == maya.Announce(1, 33)
    assert read_announcement(1, "Double6") == maya.Announce(1, 66)
    assert read_announcement(1, "33") == maya.Announce(1, 33)


def test_a_long_message_keeps_its_newest_lines() -> None:
    from cogs.table.channel import CONTENT_LIMIT, clip

    headline = [f"reveal {n} " + "x" * 300 for n in range(8)]
    story = ["story line " + "y" * 200] * 3
    shown = clip([*headline, *story, "🔔 À toi de jouer, <@1> !"], keep=len(headline))
    assert len(shown) <= CONTENT_LIMIT
    assert shown.endswith("🔔 À toi de jouer, <@1> !")  # whose turn it is always shows
    assert "story line" not in shown and "reveal 7" in shown and "reveal 0" not in shown
