"""How a menteur reveal reads: the count, with the jokers in it, in words players use."""

from __future__ import annotations

import pytest

from bot.games import menteur as lm
from bot.games.menteur import cpu
from bot.games.menteur import events as ev
from cogs.menteur import render

A, B = 11, 22


def reveal(hands: dict[int, list[int]], *, face: int, jokers: bool, quantity: int) -> ev.Revealed:
    actual = sum(
        d == face or (jokers and face != 1 and d == 1) for dice in hands.values() for d in dice
    )
    return ev.Revealed(
        hands=[{"player": p, "dice": dice} for p, dice in hands.items()],
        quantity=quantity,
        face=face,
        jokers=jokers,
        actual=actual,
        holds=actual >= quantity,
        challenger=A,
        bidder=B,
    )


def count_line(event: ev.Revealed, lang: str) -> str:
    return render.event_lines([event], lang, lambda p: f"<@{p}>")[-1]


@pytest.mark.parametrize(
    ("hands", "face", "jokers", "quantity", "lang", "expected"),
    [
        (
            {A: [5, 1, 2], B: [5, 5]},
            5,
            True,
            3,
            "fr",
            "✅ **4** dés comptent pour 5 (dont 1 joker) : l'annonce tient.",
        ),
        (
            {A: [5, 1, 2], B: [5, 5]},
            5,
            False,
            3,
            "fr",
            "✅ **3** dés comptent pour 5 : l'annonce tient.",
        ),
        (
            {A: [2, 3], B: [4, 6]},
            5,
            True,
            1,
            "fr",
            "❌ **Aucun** dé ne compte pour 5 : l'annonce tombe.",
        ),
        (
            {A: [1, 3], B: [4, 1]},
            5,
            True,
            3,
            "fr",
            "❌ Seulement **2** dés comptent pour 5 (dont 2 jokers) : l'annonce tombe.",
        ),
        (
            {A: [1, 3], B: [4, 6]},
            1,
            True,
            2,
            "fr",
            "❌ Seulement **1** dé compte pour 1 : l'annonce tombe.",
        ),
        ({A: [2, 3], B: [4, 6]}, 5, True, 1, "en", "❌ **No** die counts as 5: the bid fails."),
        (
            {A: [5, 1], B: [5]},
            5,
            True,
            2,
            "en",
            "✅ **3** dice count as 5 (1 of them a joker): the bid holds.",
        ),
    ],
)
def test_a_reveal_says_the_count_and_its_jokers(hands, face, jokers, quantity, lang, expected):
    assert count_line(reveal(hands, face=face, jokers=jokers, quantity=quantity), lang) == expected


YOU = 7


@pytest.mark.parametrize(
    ("event", "fr", "en"),
    [
        (ev.RoundStarted(round=2, opener=YOU, counts=[], total=9), "tu ouvres", "you open"),
        (ev.BidMade(player=YOU, quantity=3, face=4, next=A), "Tu annonces", "You bid"),
        (
            ev.Challenged(player=A, bidder=YOU, quantity=3, face=4),
            "soulève ton annonce",
            "challenges your bid",
        ),
        (
            ev.DieLost(player=YOU, remaining=2, reason="bid"),
            "Tu perds un dé (2 restants)",
            "You lose a die",
        ),
        (ev.PlayerEliminated(player=YOU), "Tu n'as plus de dés", "You have no dice left"),
        (ev.GameWon(player=YOU), "Tu gagnes la partie !", "You win the game!"),
    ],
)
def test_the_tutorial_speaks_to_its_player_in_the_second_person(event, fr, en):
    # The tutorial names its player "toi": "toi ouvre" and "toi perd un dé" went.
    for lang, expected in (("fr", fr), ("en", en)):
        name = "toi" if lang == "fr" else "you"
        line = render.event_lines(
            [event], lang, lambda p, name=name: name if p == YOU else f"<@{p}>", you=YOU
        )
        assert expected in line[0], line
        assert f"{name} ouvre" not in line[0] and f"{name} perd" not in line[0]
    # At a table nobody is "you": the third person, with the player's mention.
    told = render.event_lines([event], "fr", lambda p: f"<@{p}>")[0]
    assert "Tu " not in told and "tu ouvres" not in told


# --------------------------------------------------------------------------- the variants


def calza(hands: dict[int, list[int]], *, face: int, quantity: int) -> ev.Revealed:
    event = reveal(hands, face=face, jokers=True, quantity=quantity)
    return ev.Revealed(
        **{**event.data, "call": "calza", "exact": event.actual == quantity},
    )


@pytest.mark.parametrize(
    ("hands", "quantity", "lang", "expected"),
    [
        (
            {A: [5, 1, 2], B: [5, 5]},
            4,
            "fr",
            "✅ Exactement **4** dés comptent pour 5 (dont 1 joker) : la calza est juste.",
        ),
        (
            {A: [5, 1, 2], B: [5, 5]},
            3,
            "fr",
            "❌ **4** dés comptent pour 5 (dont 1 joker), pas 3 : la calza est ratée.",
        ),
        (
            {A: [2, 3], B: [4]},
            1,
            "fr",
            "❌ **Aucun** dé ne compte pour 5, pas 1 : la calza est ratée.",
        ),
        ({A: [5], B: [4]}, 1, "en", "✅ Exactly **1** die counts as 5: the calza is right."),
        (
            {A: [5, 1], B: [5]},
            2,
            "en",
            "❌ **3** dice count as 5 (1 of them a joker), not 2: the calza is wrong.",
        ),
    ],
)
def test_a_calza_reveal_says_whether_the_count_is_exact(hands, quantity, lang, expected):
    assert count_line(calza(hands, face=5, quantity=quantity), lang) == expected


def test_a_calza_says_who_calls_whose_bid_then_the_dice_gained_or_kept():
    def name(player: int) -> str:
        return f"<@{player}>"

    called = render.event_lines(
        [ev.CalzaCalled(player=A, bidder=B, quantity=4, face=5)], "fr", name
    )
    assert called == [
        f"🎯 <@{A}> dit « Calza ! » : l'annonce de <@{B}>, **quatre 5**, serait exacte. Tous les dés :"
    ]
    gained = render.event_lines([ev.DieGained(player=A, remaining=4)], "fr", name)
    assert gained == [f"🎁 <@{A}> récupère un dé (4 dés)."]
    capped = render.event_lines([ev.DieGained(player=A, remaining=5, capped=True)], "en", name)
    assert capped == [f"🎁 <@{A}> already has all 5 starting dice: nothing to get back."]


def test_a_palifico_round_is_announced_with_its_rules():
    event = ev.RoundStarted(round=4, opener=A, counts=[], total=7, palifico=A)
    lines = render.event_lines([event], "fr", lambda p: f"<@{p}>")
    assert lines[1] == (
        f"🌴 **Palifico** : <@{A}> n'a plus qu'un dé. Cette manche, les 1 ne sont pas jokers et "
        "la valeur de l'ouverture ne change pas : seule la quantité monte."
    )
    plain = ev.RoundStarted(round=4, opener=A, counts=[], total=7)
    assert len(render.event_lines([plain], "fr", lambda p: f"<@{p}>")) == 1


def test_the_rules_label_names_the_variants_played():
    assert render.rules_label(lm.Rules(), "fr") == "5 dés, les 1 sont jokers"
    both = lm.Rules(dice=3, jokers=False, calza=True, palifico=True)
    assert render.rules_label(both, "fr") == "3 dés, sans jokers · Calza · Palifico"
    assert render.rules_label(lm.Rules(calza=True), "en") == "5 dice, ones wild · Calza"


# --------------------------------------------------------------------------- the tutorial's hint


def hint_view(bids: list[tuple[int, int]]) -> lm.View:
    """Player 2 (the reader: no 6, no 1) facing player 1's bids (and its own between them)."""
    state = lm.new_game([1, 2], lm.Rules())
    state, _ = lm.apply(state, lm.Roll(1, ((6, 6, 6, 1, 2), (2, 3, 3, 4, 5))))
    for quantity, face in bids:
        state, _ = lm.apply(state, lm.Bid(state.current, quantity, face))
    return lm.view(state, 2)


def test_the_hint_weighs_the_others_bids_and_says_why() -> None:
    view = hint_view([(2, 6), (3, 3), (4, 6)])
    read = cpu.reading(view)
    assert read is not None
    lines = render.hint_lines(view, lm.Challenge(2), "fr", lambda p: "**Bébert** 🤖")
    assert lines[0] == (
        "Probabilité que « quatre 6 » soit vraie, vu tes dés et les annonces des autres : "
        f"**{read.holds:.0%}** (tes dés seuls : {read.alone:.0%})."
    )
    ((_, expected, _),) = read.players
    assert expected >= 2
    assert lines[1] == (
        "Pourquoi : on annonce surtout ce qu'on a ; d'après ses annonces, **Bébert** 🤖 a "
        f"sans doute {render.decimal(expected, 'fr')} dés pour 6 (au hasard : 1,7)."
    )
    assert lines[2] == "Un bon joueur contesterait : « Menteur ! »"
    english = render.hint_lines(view, None, "en", lambda p: "**Bébert** 🤖")
    assert english[1].startswith("Why: people mostly bid what they hold; by their bids,")
    assert "(at random: 1.7)" in english[1]


def test_the_hint_says_when_the_bids_tell_no_more_than_chance() -> None:
    # A first bid of one 2: nearly any hand makes it, so it says little about the hand.
    view = hint_view([(1, 2)])
    read = cpu.reading(view)
    assert read is not None
    (reading_of_bidder,) = read.players
    assert abs(reading_of_bidder[1] - reading_of_bidder[2]) < render.TELLING
    lines = render.hint_lines(view, None, "fr", lambda p: "**Bébert** 🤖")
    assert (
        lines[1]
        == "Pourquoi : les annonces n'en disent pas plus que le hasard ici ; tes dés décident."
    )


@pytest.mark.parametrize(
    ("value", "lang", "expected"),
    [
        (0.42, "fr", "0,4 dé"),
        (1.44, "fr", "1,4 dé"),
        (2.7, "fr", "2,7 dés"),
        (0.42, "en", "0.4 dice"),
        (1.0, "en", "1.0 dice"),
    ],
)
def test_the_hint_counts_dice_in_decimals_with_the_right_noun(value, lang, expected):
    line = render.t(
        lang,
        "m.hint.why",
        player="X",
        expected=render.decimal(value, lang),
        amount=render.plural_amount(value, lang),
        face="4",
        prior="1",
    )
    assert expected in line
