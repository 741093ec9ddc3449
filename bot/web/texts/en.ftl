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
