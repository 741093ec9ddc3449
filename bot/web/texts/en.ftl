## web
web-title = { $server }'s leaderboards
web-subtitle = The games played on this server with Gobelet
web-game = Game
web-metric = Criterion
web-when = Period
web-show = Show
web-rank = Rank
web-player = Player
web-value = Value
web-empty = Nobody is ranked here yet. Grab a cup!
web-page = Page { $page } of { $pages }
web-previous = ← Previous
web-next = Next →
web-ranked = { $ranked ->
        [one] { $ranked } player ranked
       *[other] { $ranked } players ranked
    }
web-someone = Player #{ $id }
web-back = ← The leaderboards
web-player_title = { $player } on { $server }
web-rating = Elo rating: { $rating }
web-picture = { $player }'s Elo rating over time, and their games won and played per game
web-missing_title = Page not found
web-missing = This address leads to no page: it may be mistyped, or the server turned its page off (its admins turn it back on with /settings web).
web-down_title = One moment…
web-down = The leaderboards are not answering right now. Try again in a moment.
web-language = Language:
web-achievements = Achievements
web-earned_on = on { $day }
web-busy = Many people are looking at the leaderboards right now: try again in a few seconds.
web-sections = The server's pages
web-leaderboards = Leaderboards
web-tournaments = Tournaments
web-tournaments_title = { $server }'s tournaments
web-tournaments_subtitle = The latest tournaments held on this server
web-tournaments_empty = No tournament on this server yet.
web-tournament_title = { $game } tournament on { $server }
web-back_tournaments = ← Tournaments
web-format-single_elimination = Single elimination
web-format-swiss = Swiss rounds
web-format-pools = Pools and a final table
web-status-signup = Signing up
web-status-round = Round { $round } of { $rounds }
web-status-pool_round = Round { $round }
web-status-final = Final
web-status-over = Over
web-winner = Winner: { $player }
web-no_winner = No winner
web-signed_up = { $count } signed up
web-players = { $count ->
        [one] { $count } player
       *[other] { $count } players
    }
web-nobody_signed_up = Nobody has signed up yet.
web-standings_so_far = Standings so far
web-standings = Standings
web-bracket = Bracket
web-round = Round { $number }
web-final = Final
web-to_pair = Paired once the round before is over.
web-col-points = Pts
web-col-buchholz = Bu.
web-col-rounds = Rounds
web-col-wins = W
web-legend-swiss = Pts: points (1 a win or a bye) · Bu.: Buchholz, the points of the opponents met · W: wins
web-legend-single_elimination = Rounds: rounds come through (byes and walkovers included) · W: wins
web-legend-pools = Rounds: pool rounds come through · W: tables won
web-match-upcoming = To come
web-match-pending = To play
web-match-bye = Bye
web-match-walkover = Walkover (both opponents forfeited)
web-match-empty = Nobody (both players before forfeited)
web-match-no_winner = No winner
web-forfeit = forfeit
web-went_on = through
