### What every table shares: lobby, turns, refusals, leaderboards, settings, data. (English)

## ev
ev-game_stopped = 🏁 The game is over.
ev-player_left = 🚪 { $player } leaves the table.

## me
me-done = Done.

## btn
btn-join = Join
btn-rematch = Rematch
btn-start = Start
btn-leave = Leave
btn-dice = My dice

## err
err-not_your_turn = It is not your turn: { $current } is to play.
err-not_now = That is not possible at this point of the game.
err-not_now_possible = Not now. What you can do: { $possible }.
err-game_over = This game is over.
err-invalid_dice = Invalid dice.
err-unknown_player = You are not playing at this table.
err-unknown_player_turn = You are not playing at this table: { $current } is to play.
err-accused_not_playing = { $player } is not playing at this table: only players can be accused.
err-eliminated = You are out of this game.
err-table_full = The table is full ({ $most } players).
err-invalid_rules = Invalid option: { $option } = { $value }.
err-invalid_players = A game needs 2 to 10 players.
err-game_error = Action refused.
err-dm = Games are played in a server channel, not in direct messages.
err-no_table = There is no { $game } game in this channel. Start one with { $command }.
err-table_busy = A { $game } game is already running in this channel; finish it or play in another channel.
err-stale = This button belongs to a finished game.
err-stale_turn = Too late: this button is from a turn already played.
err-rematch_over = This rematch is no longer on offer.
err-rematch_not_yours = Only the players of that game can start its rematch.
err-wrong_message = This control is not on this message: nothing was played.
err-not_starter = Only { $starter } (or a member with Manage Server) can do that.
err-not_in_lobby = The game has already started.
err-need_players = At least 2 players (CPUs included) are needed to start.
err-not_at_table = You are not playing at this table.
err-rate_limited = Easy! Wait { $seconds } more seconds before another accusation.
err-storage = The game could not be saved; nothing was played. Try again in a moment.
err-internal = Oops, something went wrong on our side. The action was not played.
err-closing = The bot is stopping for a moment (a restart or an update): nothing was done. Try again in a minute!
err-unknown_command = This command is no longer available.

## note
note-timeout = ⏱️ { $player } did not play in time: the CPU plays for them.
note-timeout_leave = ⏱️ { $player } let 3 turns in a row pass.
# The end of a game: the final standings.
end-standings = 🏅 **Final standings**
end-place = { $place }. { $player } — { $detail }
end-out_in = out in round { $round }
end-left = · { $player } left the table
end-tally = 📊 **Final tally of the night** (who drank most first)
end-drinker = 🍻 Pillar of the bar: { $player }
end-sober = 😇 Soberest of the night: { $player }
table-your_turn = 🔔 Your turn, { $player }!
note-back = 🔁 The table is back after a bot restart. Let's go on!
note-table_opened = 🎲 { $player } opens a { $game } table ({ $preset }).
note-started = 🎲 The game starts! Order of play: { $order }
note-lobby_joined = 👋 { $player } joins the table.
note-lobby_left = 🚪 { $player } leaves the table.
note-lobby_closed = 🚪 { $player } leaves the table; nobody is left: the table is closed.
note-rematch = 🔁 Rematch! { $player } opens the same table again, same options. Waiting for { $players }: the game starts as soon as everyone has joined.
note-rematch_call = 🔁 { $players }: rematch? Click **Join** on the table.
note-rematch_alone = 🔁 Rematch! { $player } opens the same table again, same options.
thread-name = { $game } — { $player }
thread-opened = { $text } The table is in the thread { $thread }.
thread-ended = 🏁 { $game } game over in { $thread }:
thread-closed = 🚪 The { $game } table in { $thread } is closed.
perm-threads = ⚠️ The table is open in this channel, not in a thread: I lack { $count ->
        [one] this permission
       *[other] these permissions
    }: { $permissions }.
perm-threads-create_public_threads = • Without Create Public Threads, I cannot start a thread for the table.
perm-threads-send_messages_in_threads = • Without Send Messages in Threads, I could not play in the thread.
thread-busy = ⚠️ The table is open in this channel, not in a thread: Discord is limiting how many threads can be started on this server for a few minutes.
thread-refused = ⚠️ The table is open in this channel, not in a thread: Discord refused to start one here.
note-stopped_by = 🛑 { $player } stops the game.

## err
err-not_started = The game has not started yet.

## level
level-facile = easy
level-moyen = medium
level-difficile = hard

## demo
demo-private = { $player }, private

## rank
rank-title = 🏆 { $game } — { $metric } ({ $period })
rank-period-semaine = this week
rank-period-mois = this month
rank-period-tout = all time
rank-empty = Nobody is ranked here yet. Grab a cup!
rank-page = page { $page }/{ $pages }
rank-yours = Your rank: { $rank } ({ $value })

## season
season-span = season { $number } ({ $first } – { $last })
season-current = { $span }, current
season-closed = 🏁 The end of { $span }: the podium
season-next = Season { $number } begins: every Elo rating starts again halfway back to 1000.

## metric
metric-games = games
metric-rating = Elo rating
metric-wins = wins

## stats
stats-title = 📊 { $player }'s statistics on this server
stats-empty = No game counted yet.
stats-plot_rating = Elo rating
stats-plot_results = Games won / played
stats-plot_no_rating = No rated game with others yet

## err
err-unknown_metric = Unknown criterion for this game. Criteria: { $metrics }

## ach
# An achievement earned at the end of a game, and the list /achievements shows.
ach-earned = 🏅 Achievement unlocked for { $player }: **{ $name }** — { $description }
ach-title = 🏅 { $player }'s achievements on this server: { $earned }/{ $total }
ach-held = 🏅 **{ $name }** — { $description } ({ $when })
ach-locked = 🔒 { $name } — { $description }
stats-achievements = 🏅 Achievements

## settings
settings-title = ⚙️ **Server settings**
settings-timer = ⏱️ Turn timer: { $seconds } s
settings-timer_default = ⏱️ Turn timer: default
settings-language = 🌐 Language of public messages: { $language }
settings-language_auto = 🌐 Language of public messages: the server's
settings-season = 🏁 Seasons: { $months ->
        [one] { $months } month
       *[other] { $months } months
    }; podium announced in { $channel }
settings-season_quiet = 🏁 Seasons: { $months ->
        [one] { $months } month
       *[other] { $months } months
    }; podium not announced (pick a channel with /settings season channel:)
settings-threads_on = 🧵 Tables: each in a public thread of the channel
settings-threads_off = 🧵 Tables: in the channel (/settings threads to open them in a thread)
settings-season_now = Current season: { $span }, ends { $closes } ({ $relative }).
settings-season_none = No season yet: the first begins with the first game counted on this server.
settings-saved = ✅ Settings saved (they apply to new tables).
settings-web_on = 🌐 The server's web page is on: { $address }
    Whoever has this address sees the server's leaderboards and statistics, with the name each player joined tables with. To turn it off: /settings web turn_on:False; to give it another address: /settings web new_address:True.
settings-web_off = 🌐 The server's web page is off: its address leads nowhere now.

## err
err-need_manage_guild = You need the Manage Server permission to change the settings.

## data
data-what = Here is what Gobelet keeps about you on this server: your statistics, your Elo rating (each finished season's, and how it moved), your achievements, and the name you joined tables with (for the Yadès sheets and the server's web page). The moves you played stay attached to their games.
data-sure = Erase all your statistics, your achievements, your rating and your kept name on this server? This cannot be undone.
data-confirm = Yes, erase everything
data-erased = 🗑️ Done: { $rows ->
        [one] { $rows } row erased.
       *[other] { $rows } rows erased.
    }
data-not_yours = This button is not for you.
data-expired = ⌛ This request has expired: nothing was erased. Run /data erase to ask again.

## err
err-no_table_lift = There is no game in this channel: /lift is for Maya ({ $command }) and Liar's dice ({ $other }).
err-cpu_count = That many CPUs is not possible: from 0 to { $most } at this table.
err-cpu_level = Unknown CPU level: pick one of { $levels }.
err-text_empty = The text is empty.
err-text_too_long = Text too long: { $most } characters at most.
err-text_link = No links here, please: just words.
err-unknown_game = Unknown game. Games: { $games }
err-unknown_period = Unknown period. Periods: { $periods }
err-season_or_period = Pick a period or a season, not both.
err-web_unavailable = The web page is not available on this bot: whoever hosts it must give it a port (GOBELET_WEB_PORT) and an address (GOBELET_WEB_URL).
err-web_is_off = The server's web page is off. To turn it on: /settings web turn_on:True.
err-no_season = This server has no season yet: the first begins with the first game counted.
err-unknown_season = Unknown season: { $last ->
        [one] this server only has season 1.
       *[other] this server has seasons 1 to { $last }.
    }
err-season_length = A season lasts { $lengths } months.
err-season_channel = I cannot post in { $channel }: give me the View Channel, Send Messages and Embed Links permissions, or pick another channel.
err-season_channel_and_quiet = Pick a channel for the announcements or stop them, not both.
err-season_no_channel = First pick the announcements' channel: /settings season channel:…
err-timer_range = The timer goes from { $least } to { $most } seconds.
err-unknown_language = Unknown language: { $languages }.

## help
help-title = 🎲 Gobelet — help
help-shared = For every table
help-more = /help game:… explains one game in detail. One table per channel: open it, the others join with its button.
help-options = The table's options
help-commands = The commands
help-mentioned = 👋 To play, type /help: the games, how to play them, the commands. Then /maya start, /yades challenge or /liarsdice start open a table here.

## err
# An option out of what its command declares to Discord (a modified client): said by what
# it broke, or in its command's own words (err-option-<command>-<option>).
err-option_range = Sorry, { $value } is not possible for `{ $option }`: please pick from { $least } to { $most }.
err-option_least = Sorry, { $value } is not possible for `{ $option }`: please pick at least { $least }.
err-option_most = Sorry, { $value } is not possible for `{ $option }`: please pick at most { $most }.
err-option_choice = Sorry, “{ $value }” is not a choice of `{ $option }`. Please pick one of: { $choices }.
err-option_channel = Sorry, that channel does not fit `{ $option }`: please pick another one.
err-text_too_short = Text too short: { $least } characters at least.
err-option-reglages_minuteur-secondes = The timer goes from { $least } to { $most } seconds.
err-option-reglages_langue-langue = Unknown language: { $values }.
err-option-reglages_saison-duree = A season lasts { $values } months.
err-option-classement-jeu = Unknown game. Games: { $codes }
err-option-classement-periode = Unknown period. Periods: { $codes }

## perm
# The bot's permissions, as Discord names them to an English client.
perm-view_channel = View Channel
perm-send_messages = Send Messages
perm-send_messages_in_threads = Send Messages in Threads
perm-create_public_threads = Create Public Threads
perm-embed_links = Embed Links
perm-read_message_history = Read Message History
perm-add_reactions = Add Reactions
perm-manage_messages = Manage Messages

## err
err-bot_permissions = I cannot play in this channel, I lack { $count ->
        [one] this permission
       *[other] these permissions
    }: { $permissions }. Please ask someone who manages the server to grant { $count ->
        [one] it
       *[other] them
    } to me here, or open the table in another channel.
