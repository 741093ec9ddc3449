"""What a table's message shows besides the table (``cogs.table.channel.Post``): its story's
latest lines as they were told, and the messages seen below it."""

from __future__ import annotations

from cogs.table.channel import STORY_LINES, Post


def test_the_story_keeps_its_latest_lines_as_they_were_told() -> None:
    post = Post()
    told = [f"🎲 **Manche {n}** — <@{1000 + n}> ouvre." for n in range(STORY_LINES + 2)]
    odd = "📣 Zoë \ud83c annonce **31**."  # a lone surrogate, as a display name can have one
    for line in [*told, odd]:
        post.fold([line])
    assert post.story == [*told[-(STORY_LINES - 1) :], odd]


def test_a_move_of_more_lines_than_the_story_shows_is_kept_whole() -> None:
    post = Post()
    post.fold(["avant"])
    reveal = [f"⚀ {n}" for n in range(STORY_LINES + 3)]
    post.fold(reveal)
    assert post.story == reveal


def test_the_messages_below_the_table_are_counted_from_its_latest_copy() -> None:
    post = Post()
    assert post.under(100) == 0
    post.seen({101, 102, 105})
    assert post.under(100) == 3
    assert post.under(102) == 1  # the table was posted anew as message 102
    post.seen(post.below - {105})
    assert (post.under(102), post.below) == (0, frozenset())


def test_tables_without_messages_below_share_one_empty_set() -> None:
    first, second = Post(), Post()
    second.seen({7})
    second.under(7)
    assert first.below is second.below
