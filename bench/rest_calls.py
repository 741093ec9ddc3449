"""How many REST calls the real bot makes per accepted move, at people's pace, per game.

    .venv/bin/python -m bench.rest_calls [--pace 2] [--cpu-delay 0.5] [--seed 1]

Starts the Discord emulator of the end-to-end tests (``tests/e2e``) with Discord's rate limits
(``tests/e2e/ratelimits.py``: 5 message creates, edits or deletes per 5 s per channel, 1
reaction per 0.25 s, 50 requests a second per token in all) and the real bot
(``python -m bot``) against it, on a fresh database, as ``bench/e2e_latency.py`` does. Four tables play at once, one per channel of a French
server, each with its own people, the way ``tests/e2e/test_channel.py`` plays them (buttons,
panels and menus, and now and then a word in the channel): a Maya soirée (3 people and a
CPU, stopped after 6 rounds), Mia (3 people and a CPU, 3 lives), Yadès (one person against
the CPU) and the menteur (2 people and 2 CPUs, 3 dice each). Before each move a person takes
``--pace`` seconds on average (0.5 to 1.5 times that, at random); a CPU plays
``--cpu-delay`` seconds after its turn comes (the bot's own default is 1.5 s; a shorter one
keeps the run to a few minutes and does not change what the bot sends for a move).

Printed per game: the accepted moves (the people's moves the game took), the bot's REST calls
made for that table in all and per move, by kind (interaction callbacks; followups and
edits through the interaction webhook; channel message creates, edits and deletes;
reactions; anything else), the globally limited ones among them (every call but the
interaction callbacks and webhooks: what counts against the token's 50 requests a second),
and the 429s the table met by scope, expected none: at people's pace no table should be
rate limited. Then the same as a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a file: python bench/rest_calls.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.handles import HttpCall, InjectedInteraction
from tests.e2e.ratelimits import WEBHOOK_BUCKETS, RateLimitHit
from tests.e2e.test_channel import Watch, play_maya, play_menteur, play_yades
from tests.e2e.world import Channel, User, World

KINDS = ("callback", "webhook", "create", "edit", "delete", "reaction", "other")
HEADINGS = {
    "callback": "callbacks",
    "webhook": "followups & webhook edits",
    "create": "message creates",
    "edit": "message edits",
    "delete": "message deletes",
    "reaction": "reactions",
    "other": "other",
}
CALLBACK = re.compile(r"^/api/v10/interactions/(\d+)/[^/]+/callback$")
WEBHOOK = re.compile(r"^/api/v10/webhooks/\d+/([^/]+)")
CHANNEL = re.compile(r"^/api/v10/channels/(\d+)(/messages(/\d+)?(/reactions.*)?)?")


class PacedWatch(Watch):
    """``Watch`` as the tests use it, with a person's pace: the game loops of test_channel.py
    call ``chatter`` once before each of a person's moves, so the person thinks there."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        channel: Channel,
        humans: list[User],
        seed: int,
        pace: float,
    ) -> None:
        super().__init__(emulator, channel, humans, seed)
        self.pace = pace

    async def chatter(self) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.pace)
        await super().chatter()


@dataclass
class Game:
    name: str
    channel: Channel
    watch: PacedWatch
    play: Callable[[], Awaitable[object]]
    error: str | None = None


def build_world() -> World:
    world = World.empty()
    world.add_user("patron")
    world.add_guild("bench", owner="patron", locale="fr")
    for channel in ("maya", "mia", "yades", "duel", "menteur"):
        world.add_channel("bench", channel)
    people = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hugo", "ines", "jo", "kim")
    for name in people:
        world.add_user(name)
        world.join("bench", name)
    return world


def games(emulator: DiscordEmulator, pace: float, seed: int) -> list[Game]:
    def watch(channel: str, names: Sequence[str], number: int) -> PacedWatch:
        humans = [emulator.user(name) for name in names]
        rng_seed = seed * 10 + number
        return PacedWatch(emulator, emulator.channel("bench", channel), humans, rng_seed, pace)

    maya = watch("maya", ("alice", "bob", "carol"), 1)
    mia = watch("mia", ("dave", "erin", "frank"), 2)
    yades = watch("yades", ("gina",), 3)
    menteur = watch("menteur", ("hugo", "ines"), 4)
    duel = watch("duel", ("jo", "kim"), 5)
    return [
        Game("Maya (soirée)", maya.channel, maya, lambda: play_maya(emulator, maya, "soiree", 6)),
        Game("Mia (vies)", mia.channel, mia, lambda: play_maya(emulator, mia, "vies", 6)),
        Game("Yadès vs CPU", yades.channel, yades, lambda: play_yades(emulator, yades)),
        Game("Yadès duel", duel.channel, duel, lambda: play_yades(emulator, duel)),
        Game(
            "Menteur (2 + 2 CPU)",
            menteur.channel,
            menteur,
            lambda: play_menteur(emulator, menteur, 3),
        ),
    ]


def classify(
    call: HttpCall, interactions: dict[str, InjectedInteraction]
) -> tuple[str, int | None]:
    """The kind of a call and the channel it was made for (None: no table's)."""
    found = CALLBACK.match(call.path)
    if found:
        interaction = interactions.get(found.group(1))
        return "callback", interaction.channel.id if interaction else None
    found = WEBHOOK.match(call.path)
    if found:
        interaction = interactions.get(found.group(1))
        return "webhook", interaction.channel.id if interaction else None
    found = CHANNEL.match(call.path)
    if not found:
        return "other", None
    channel = int(found.group(1))
    messages, one, reactions = found.group(2), found.group(3), found.group(4)
    if reactions:
        return "reaction", channel
    if messages and not one and call.method == "POST":
        return "create", channel
    if one and call.method == "PATCH":
        return "edit", channel
    if one and call.method == "DELETE":
        return "delete", channel
    return "other", channel


def tally(emulator: DiscordEmulator, first_call: int) -> dict[int | None, Counter[str]]:
    """REST calls since ``first_call`` by channel and kind."""
    interactions: dict[str, InjectedInteraction] = {}
    for interaction in emulator.interactions:
        interactions[str(interaction.id)] = interaction
        interactions[interaction.token] = interaction
    counts: dict[int | None, Counter[str]] = {}
    for call in emulator.calls[first_call:]:
        kind, channel = classify(call, interactions)
        counts.setdefault(channel, Counter())[kind] += 1
    return counts


def kinds_of(kinds: Counter[str]) -> list[int]:
    return [kinds[kind] for kind in KINDS]


EXEMPT = ("callback", "webhook")  # the interaction endpoints, outside the global limit


def limited(kinds: Counter[str]) -> int:
    """The calls that count against the bot token's global limit."""
    return kinds.total() - sum(kinds[kind] for kind in EXEMPT)


def scopes(hits: list[RateLimitHit]) -> str:
    """429s by scope, the interaction webhooks' by bucket: ``0`` or ``2 user, 1 global``."""
    counted = Counter(hit.bucket if hit.bucket in WEBHOOK_BUCKETS else hit.scope for hit in hits)
    return ", ".join(f"{n} {scope}" for scope, n in sorted(counted.items())) or "0"


def report(emulator: DiscordEmulator, played: list[Game], first_call: int, elapsed: float) -> None:
    counts = tally(emulator, first_call)
    rows = []
    for game in played:
        kinds = counts.get(game.channel.id, Counter())
        moves = game.watch.moves
        total = kinds.total()
        met = scopes([hit for hit in emulator.rate_limited if hit.channel_id == game.channel.id])
        split = ", ".join(f"{kinds[kind]} {HEADINGS[kind]}" for kind in KINDS)
        print(f"{game.name}: {moves} accepted moves, {total} REST calls ({split})", end="")
        print(f", {limited(kinds)} globally limited, 429s: {met}", end="")
        print(f"; FAILED: {game.error}" if game.error else "")
        shown = (total, limited(kinds), *kinds_of(kinds))
        per = [f"{count / moves:.2f}" if moves else "-" for count in shown]
        rows.append([game.name, str(moves), str(total), *per, met])
    channels = {g.channel.id for g in played}
    elsewhere = [hit for hit in emulator.rate_limited if hit.channel_id not in channels]
    print()
    headings = ["game", "accepted moves", "REST calls", "per move", "globally limited / move"]
    headings += [f"{HEADINGS[kind]} / move" for kind in KINDS] + ["429s"]
    print("| " + " | ".join(headings) + " |")
    print("|" + "|".join("---" if n == 0 else "---:" for n in range(len(headings))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print(
        f"{elapsed:.0f} s of play, {len(rows)} tables at once; 429s in all: "
        f"{scopes(emulator.rate_limited)} ({len(elsewhere)} outside the tables); "
        f"invalid requests: {emulator.invalid_per_window()} in the worst 10 minutes"
    )


async def bench(args: argparse.Namespace, workdir: Path, holder: list[BotProcess]) -> int:
    emulator = DiscordEmulator(build_world())  # Discord's rate limits: the default
    await emulator.start()
    env = {
        "GOBELET_CPU_DELAY_SECONDS": str(args.cpu_delay),
        "GOBELET_TURN_SECONDS": "3600",
        "GOBELET_LOG_LEVEL": "INFO",
    }
    bot = BotProcess(emulator, workdir, env=env)
    holder.append(bot)
    try:
        await bot.start(timeout=60)
        print(f"bot ready; pace {args.pace:g} s, CPU delay {args.cpu_delay:g} s", flush=True)
        first_call = len(emulator.calls)
        played = games(emulator, args.pace, args.seed)
        began = time.monotonic()
        outcomes = await asyncio.gather(*(game.play() for game in played), return_exceptions=True)
        elapsed = time.monotonic() - began
        for game, outcome in zip(played, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                game.error = (str(outcome) or repr(outcome)).splitlines()[0][:200]
        report(emulator, played, first_call, elapsed)
        return 1 if any(game.error for game in played) else 0
    finally:
        code = await bot.stop()
        await emulator.stop()
        if code not in (0, None, -signal.SIGINT):
            print(f"the bot exited with code {code}; its log: {bot.log_paths[-1]}")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.rest_calls",
        description="The bot's REST calls per accepted move, per game, at people's pace.",
    )
    parser.add_argument(
        "--pace", type=float, default=2.0, help="mean seconds a person takes per move (2)"
    )
    parser.add_argument(
        "--cpu-delay", type=float, default=0.5, help="seconds before a CPU plays (0.5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the people's choices (1)")
    parser.add_argument("--keep", action="store_true", help="keep the database and bot log")
    args = parser.parse_args(argv)
    if args.pace < 0 or args.cpu_delay < 0:
        parser.error("--pace and --cpu-delay cannot be negative")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    holder: list[BotProcess] = []
    workdir = Path(tempfile.mkdtemp(prefix="gobelet-rest-"))
    try:
        return asyncio.run(bench(args, workdir, holder))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for bot in holder:  # whatever interrupted the run, no bot outlives it
            if bot.process is not None and bot.process.poll() is None:
                bot.process.kill()
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
