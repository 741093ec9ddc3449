"""A server's tournaments as the web page shows them, as plain rows
(``bot.web.tournaments``): real tournaments played with the rules engine, in every
format; each player's place and each match's winner as the channel tells them; names as
players signed up, else as the server knows them, else a neutral label."""

from __future__ import annotations

from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    Options,
    Tournament,
    advance,
    forfeit,
    standings,
    start,
)
from bot.tournaments.hosted import OVER, RUNNING, SIGNUP, Hosted
from bot.web.tournaments import (
    NOBODY,
    bracket_rows,
    standings_rows,
    tournament_row,
)
from tests.tournaments.play import entrants, play_out, play_round, script

NAMES = {1: "Alice", 2: "Bob", 3: "Chloé", 4: "Dédé", 5: "Émile", 6: "Fanny", 7: "Gus", 8: "Hugo"}


def hosted(
    tournament: Tournament | None,
    *,
    game: str = "yades",
    options: Options | None = None,
    names: dict[int, str] | None = None,
    signed_up: tuple[int, ...] = (),
) -> Hosted:
    """A tournament as a server hosts it: signing up (``tournament`` None), running or over."""
    players = tournament.players if tournament is not None else signed_up
    given = NAMES if names is None else names
    status = SIGNUP if tournament is None else OVER if tournament.over else RUNNING
    chosen = options or (tournament.options if tournament is not None else None)
    assert chosen is not None
    return Hosted(
        game=game,
        organizer=1,
        lang="fr",
        rules={},
        options=chosen,
        signup_ends=0.0,
        round_seconds=3600.0,
        status=status,
        entrants=players,
        names={p: given[p] for p in players if p in given},
        tournament=tournament,
    )


def eight_with_a_forfeit(*, finished: bool = True) -> Tournament:
    """8 players (no bye): Dédé (4) absent in round 1, Émile (5) goes on; Chloé (3) beats Bob
    (2) in a semi-final, then Alice (1) in the final."""
    played = forfeit(start(entrants(8), Options(SINGLE_ELIMINATION)), "1-2", [4])
    played = advance(play_round(played))
    if not finished:
        return played
    return play_out(played, script({"2-2": (3, 2), "3-1": (3, 1)}))


def swiss_of_six() -> Tournament:
    """6 players over 3 rounds, Bob (2) beating Alice (1) in round 1, the better seed winning
    every other match."""
    return play_out(start(entrants(6), Options(SWISS, rounds=3)), script({"1-1": (2, 1)}))


def pools_to_a_final() -> Tournament:
    """8 players at tables of 4, two of each going on: Dédé (4) absent at the first table,
    won by Émile (5) before Alice (1); a final of four won by Bob (2) before Émile."""
    played = start(entrants(8), Options(POOLS, seats=4, qualifiers=2))
    played = play_round(forfeit(played, "1-1", [4]), script({"1-1": (5, 1, 8)}))
    return play_out(advance(played), script({"2-1": (2, 5, 1, 3)}))


def test_the_rows_give_each_players_place_and_each_matchs_winner() -> None:
    # What the channel says (per player their place, per match its winner) is what the
    # rows hold, in every format.
    for played in (eight_with_a_forfeit(), swiss_of_six(), pools_to_a_final()):
        served = hosted(played)
        rows = standings_rows(served, "fr", {})
        assert [(r.player, r.place) for r in rows] == [
            (s.player, s.place) for s in standings(played)
        ]
        assert [r.name for r in rows] == [NAMES[r.player] for r in rows]
        shown = {m.id: m.winner for r in bracket_rows(served, "fr", {}) for m in r.matches}
        assert shown == {m.id: m.winner for _, m in played.matches()}
    swiss = standings_rows(hosted(swiss_of_six()), "fr", {})
    assert (swiss[0].points, swiss[0].buchholz, swiss[0].wins, swiss[0].rounds) == (3, 5, 3, None)
    elimination = standings_rows(hosted(eight_with_a_forfeit()), "fr", {})
    assert (elimination[0].rounds, elimination[0].points, elimination[0].buchholz) == (
        3,
        None,
        None,
    )


def test_an_emptied_slot_and_the_row_of_a_tournament_not_started() -> None:
    played = start(entrants(8), Options(SINGLE_ELIMINATION))
    played = advance(play_round(forfeit(forfeit(played, "1-1", [1, 8]), "1-2", [4, 5])))
    second = bracket_rows(hosted(played), "en", {})[1]
    assert [(m.status, [line.name for line in m.lines], m.winner) for m in second.matches] == [
        ("empty", [NOBODY, NOBODY], None),
        ("pending", ["Bob", "Chloé"], None),
    ]
    row = tournament_row(7, hosted(played), "en", {})
    assert (row.status, row.round, row.rounds, row.final, row.winner) == (
        RUNNING,
        2,
        3,
        False,
        None,
    )
    signing = hosted(None, options=Options(POOLS, seats=4), signed_up=(2, 99), names={2: "Bob"})
    assert standings_rows(signing, "en", {}) == [] and bracket_rows(signing, "en", {}) == []
    row = tournament_row(8, signing, "en", {99: "Zed"})
    assert (row.status, row.entrants, row.round, row.winner_name) == (
        SIGNUP,
        ("Bob", "Zed"),
        None,
        None,
    )
    assert tournament_row(8, signing, "en", {}).entrants == ("Bob", "Player #99")
