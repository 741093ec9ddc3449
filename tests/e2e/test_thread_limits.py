"""Discord's limit on thread creation (per server, its 429 minutes long) through the real
bot: a tournament's round starts no more threads than the figure and plays its other
matches in the channel, with no refused call; a long 429 makes the rest of the round play
in the channel, the organizer told once, and the tournament answers meanwhile; a table
``fil:`` refused a thread for long opens in the channel, its opener told why."""

from __future__ import annotations

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.ratelimits import Limit, RateLimits
from tests.e2e.tournament_driver import people, round_called, signed_up

FAST = pytest.mark.bot_env(GOBELET_MINUTE_SECONDS="1")
BUSY_FR = "Discord limite pour quelques minutes le nombre de fils"


@FAST
async def test_a_32_player_round_keeps_within_the_thread_figure_without_a_refused_call(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 32)
    options = {"jeu": "yades", "format": "single_elimination", "ronde": 60}
    tournament, _ = await signed_up(emulator, patron, comptoir, options, players)
    begun = await emulator.slash(patron, comptoir, "tournoi commencer")
    await begun.response()  # deferred: its answer comes once the round is called
    calls = await round_called(emulator, tournament, 1, 16, timeout=60)
    await begun.reply()
    figure = emulator.rate_limits.thread_create.count if emulator.rate_limits else 0
    threaded = [c for c in calls if c.thread.is_thread]
    assert len(threaded) == min(16, figure) == 10
    assert all(c.thread.parent_id == comptoir.id for c in threaded)
    assert all(c.thread.id == comptoir.id for c in calls if not c.thread.is_thread)
    assert len(emulator.guild("bar").threads) == 10
    told = await emulator.wait_message(emulator.dm(patron), containing=BUSY_FR)
    assert f"<#{comptoir.id}>" in told.text
    assert emulator.rate_limited == [] and emulator.http_errors == []
    assert len(emulator.transcript.containing(BUSY_FR)) == 1


@FAST
@pytest.mark.rate_limits(RateLimits(thread_create=Limit(2, 600.0)))
async def test_a_long_429_on_threads_sends_the_rest_of_the_round_to_the_channel(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 8)
    options = {"jeu": "yades", "format": "single_elimination", "ronde": 60}
    tournament, _ = await signed_up(emulator, patron, comptoir, options, players)
    await (await emulator.slash(patron, comptoir, "tournoi commencer")).reply()
    calls = await round_called(emulator, tournament, 1, 4, timeout=30)
    assert [c.thread.is_thread for c in calls] == [True, True, False, False]
    [hit] = emulator.rate_limited  # one 429, then no thread tried again
    assert hit.bucket == "thread_create" and hit.retry_after > 500
    await emulator.wait_message(emulator.dm(patron), containing=BUSY_FR)
    # No lock held across the wait: the tournament answers at once.
    shown = await (await emulator.slash(patron, comptoir, "tournoi voir")).reply()
    assert shown.text or shown.embeds
    assert len(emulator.transcript.containing(BUSY_FR)) == 1


@pytest.mark.rate_limits(RateLimits(thread_create=Limit(1, 600.0)))
async def test_a_table_refused_a_thread_for_long_opens_in_the_channel_and_says_why(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, carol = emulator.user("alice"), emulator.user("carol")
    comptoir, terrasse = emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")
    first = await (await emulator.slash(alice, comptoir, "menteur start", {"fil": True})).reply()
    assert "dans le fil" in first.text
    # The server's one thread is spent: another channel of it gets a 429 of minutes.
    here = await (await emulator.slash(carol, terrasse, "maya start", {"fil": True})).reply()
    assert not here.ephemeral and here.embeds and here.channel_id == terrasse.id
    told = await emulator.wait_message(terrasse, containing="how many threads", user=carol)
    assert told.ephemeral and told.audience == carol.id
    [hit] = emulator.rate_limited
    assert hit.bucket == "thread_create" and hit.channel_id == terrasse.id
    assert len(emulator.guild("bar").threads) == 1
