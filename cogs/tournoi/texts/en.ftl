### /tournament: the server's tournaments (English)

## tour
tour-title = 🏆 { $game } tournament
tour-game-yades = Yadès
tour-game-menteur = Liar's dice
tour-game-mia = Mia
tour-game-maya = Maya (party)
tour-format-single_elimination = Single elimination: lose a match and you are out.
tour-format-swiss = Swiss rounds: { $rounds } rounds, paired by score, never the same opponent twice.
tour-format-swiss_auto = Swiss rounds: paired by score, never the same opponent twice.
tour-format-pools = Pools of { $seats } seats: { $qualifiers } of each table go on, up to the final table.
tour-organizer = Organized by { $player }.
tour-signup_ends = Sign-ups until { $when } ({ $left }).
tour-round_time = Each round lasts { $minutes } min: a player absent at its deadline forfeits their match.
tour-entrants = **Signed up ({ $count })**: { $players }
tour-and_more = and { $count } more
tour-no_entrants = Nobody has signed up yet: click **Sign up**.
tour-opened = { $player } opens a tournament: sign up with the button.
tour-btn-join = Sign up
tour-btn-leave = Withdraw
tour-btn-start = Start
tour-btn-present = Present
tour-signed = You are signed up. The tournament will call you here when your match begins.
tour-unsigned = You are no longer signed up.
tour-started_by_you = The tournament has started.
tour-too_few = 🏆 The tournament is off: { $count } signed up, it needs at least 2.
tour-started = 🏆 The { $game } tournament begins with { $count } players!
tour-round_opened = Round { $number } is open: each match calls its players, who click **Present**.
tour-round_ends = Round { $number } until { $when } ({ $left }).
tour-thread = { $game } tournament · round { $number } · table { $table }
tour-check_in = 🏆 Round { $number }: { $players }, your match is here.
    Click **Present** before { $when } ({ $left }): the game starts once everyone is here; anyone absent at the deadline forfeits.
tour-present = Present: { $players }
tour-awaited = Waiting for: { $players }
tour-you_are_in = Noted: you are present.
tour-result = 🏆 Round { $number }, table { $table }: { $order }
tour-deadline = ⏰ Round { $number } is over.
tour-forfeit = Forfeit: { $players } (absent at the deadline).
tour-winner = 🏆 { $player } wins the { $game } tournament! Well played!
tour-no_winner = 🏆 The tournament is over with no winner: the last players were all absent.
tour-cancelled = 🏆 The tournament is cancelled by { $player }. Games under way go on, outside the tournament.
tour-removed_line = { $player } is removed from the tournament.
tour-removed = (removed)
tour-bracket = Bracket
tour-standings = Standings
tour-nobody = nobody
tour-round-number = Round { $number }
tour-round-final = Final
tour-line-bye = { $player }: bye, goes on without playing
tour-line-empty = —
tour-line-upcoming = { $players }: to come
tour-line-pending = { $players }: under way
tour-line-played = { $players } → { $winners }
tour-line-forfeit = { $players } → { $winners } (forfeit: { $forfeits })
tour-line-unpaired = Paired once the round before is over.
tour-picture-someone = Player #{ $id }
tour-picture-forfeit = forfeit
tour-picture-bye = bye
tour-figures-swiss = { $points } pt · Buchholz { $buchholz } · { $wins ->
        [one] { $wins } win
       *[other] { $wins } wins
    }
tour-figures-pools = { $rounds ->
        [one] { $rounds } round through
       *[other] { $rounds } rounds through
    } · { $wins ->
        [one] { $wins } table won
       *[other] { $wins } tables won
    }
tour-figures-elimination = { $rounds ->
        [one] { $rounds } round through
       *[other] { $rounds } rounds through
    } · { $wins ->
        [one] { $wins } win
       *[other] { $wins } wins
    }

tour-back = 🏆 The tournament goes on.
tour-removed_done = Done: the channel has been told.

## err
err-tour_removed = The organizer removed you from this tournament.
err-tour_qualifiers_pools = The number who go on is for pools only.
err-tour_not_allowed = Only members who manage the server (or hold the organizers' role, `/settings tournaments`) may open a tournament.
err-tour_not_organizer = Only the organizer ({ $starter }) or a member who manages the server may do that.
err-tour_game = Unknown game: choose among { $games }.
err-tour_format = That format is not played at this game: duels (single elimination, Swiss) for Yadès and Liar's dice, pools for Liar's dice, Mia and Maya.
err-tour_in_thread = Open the tournament in a channel, not in a thread: each match gets a thread of its own.
err-tour_seats_duel = Duels are played by 2: the seats option is for pools only.
err-tour_seats = A pool table has { $least } to { $most } seats at this game.
err-tour_qualifiers = Pools: 1 to { $most } players of each table may go on.
err-tour_rounds = The number of rounds is for Swiss tournaments only.
err-tour_minutes = A duration from { $least } to { $most } minutes.
err-tour_busy = This channel already has a tournament under way: `/tournament show`.
err-tour_none_here = No tournament open in this channel: `/tournament create` opens one.
err-tour_none = This server has had no tournament yet: `/tournament create` opens one.
err-tour_over = This tournament is over or cancelled.
err-tour_started = Sign-ups are closed: the tournament has begun.
err-tour_signed_already = You are already signed up.
err-tour_not_signed = You were not signed up.
err-tour_full = The tournament is full ({ $most } players).
err-tour_too_few = The tournament needs at least 2 players to start ({ $count } so far).
err-tour_match_over = This match is already played (or its round is over).
err-tour_not_your_match = This is not your match: only its players check in to it.
err-tour_too_late = Too late: at the round's deadline, this match was forfeited.
err-tour_checked_in = You are already checked in.
err-tour_not_entrant = That person does not play in this tournament (or was already removed).
err-tournament_table = This is a tournament table: it is played to its end (the organizer may remove a player with `/tournament remove`).

## perm
perm-tour_threads = ⚠️ This tournament's matches will be played in this channel, one after the other, not each in its own thread: I lack { $count ->
        [one] this permission
       *[other] these permissions
    }: { $permissions }.
perm-tour_threads-create_public_threads = • Without Create Public Threads, I cannot start a thread per match.
perm-tour_threads-send_messages_in_threads = • Without Send Messages in Threads, I could not play in the threads.
tour-threads_busy = ⚠️ Your { $game } tournament: Discord is limiting how many threads can be started on this server for a few minutes, so the matches without a thread are played in { $channel }, one after the other.

## settings
settings-tournament_role = 🏆 Tournaments: organized by { $role } and those who manage the server
settings-tournament_role_none = 🏆 Tournaments: organized by those who manage the server (/settings tournaments for a role)
