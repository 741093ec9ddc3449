"""A game's end, worth a screenshot: the final standings, the winner first.

Games played to the last player standing (Mia, Dés du menteur) rank by elimination: the
winner, then whoever went out last, and so on; those who left the table come after. The
game's cog gives what only it knows (each player's figure in words, the rounds they went
out in, read from the game's event log)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t

Names = Callable[[int], str]


@dataclass(frozen=True, slots=True)
class Out:
    """A player who went out: eliminated in ``round``, or (``left``) gone from the table."""

    player: int
    round: int
    left: bool = False


def went_out(
    logged: Iterable[Any], started: type[Any], eliminated: type[Any], left: type[Any]
) -> list[Out]:
    """Who went out of a game, in order, from its event log: ``started`` events carry the
    ``round`` that begins, ``eliminated`` and ``left`` ones the ``player``."""
    out: list[Out] = []
    round_ = 0
    for event in logged:
        if isinstance(event, started):
            round_ = event.round
        elif isinstance(event, eliminated):
            out.append(Out(event.player, round_))
        elif isinstance(event, left):
            out.append(Out(event.player, round_, left=True))
    return out


def elimination_standings(
    lang: str,
    names: Names,
    winner: int | None,
    standing: Sequence[tuple[int, str, int]],
    out: Sequence[Out],
) -> list[str]:
    """The standings of a game played to the last one in: ``standing`` are those still in
    (with their figure in words, "2 ❤️", and as a number: more is better), the winner among
    them; ``out`` in the order they went out. A stopped game has no winner: those still in
    rank by their figure."""
    lines = [t(lang, "end.standings")]
    place = 0
    still = sorted(standing, key=lambda seat: (seat[0] != winner, -seat[2]))
    for player, figure, _ in still:
        place += 1
        medal = "🏆 " if player == winner else ""
        lines.append(
            t(lang, "end.place", place=place, player=f"{medal}{names(player)}", detail=figure)
        )
    for gone in reversed([o for o in out if not o.left]):
        place += 1
        detail = t(lang, "end.out_in", round=gone.round)
        lines.append(t(lang, "end.place", place=place, player=names(gone.player), detail=detail))
    for gone in [o for o in out if o.left]:
        lines.append(t(lang, "end.left", player=names(gone.player)))
    return lines
