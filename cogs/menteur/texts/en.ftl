### Dés du menteur. (English)

## game
game-menteur = Liar's dice

## rank
rank-game-menteur = Liar's dice

## m
m-rules_jokers = { $dice } dice, ones wild
m-rules_plain = { $dice } dice, no jokers
m-lobby =
    At the table: { $players }
    Join with /liarsdice join; the starter starts with /liarsdice begin.
m-out = eliminated
m-left = left
m-players = Players (dice left)
m-bids = Bids of round { $round }
m-turn = Whose turn
m-turn_line = { $player }: bid higher, or call “Liar!”. { $total } dice in play.
m-footer_won = Game over.
m-dice_left = { $count ->
    [one] 1 die left
   *[other] { $count } dice left
}
m-winner = 🏆 { $player } wins the game.

## m.btn
m-btn-dudo = Liar! (challenge)

## m
m-select = Bid…
# A bid: how many dice (in words up to twenty), showing which value ("five 4s").
m-numbers = one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty
m-bid = { $words } { $face }{ $quantity ->
    [one] {""}
   *[other] s
}
m-panel_closed = 🎲 Your game at this table is over.
m-your_dice = 🎲 Your dice ({ $count }): { $dice }
m-current_bid = Bid to beat: **{ $bid }** ({ $player })
m-you = you

## m.hint
m-hint-chance = Chance that "{ $bid }" holds, given your dice and the others' bids: **{ $percent }** (your dice alone: { $alone }).
m-hint-why = Why: people mostly bid what they hold; by their bids, { $player } likely has { $expected } { $amount ->
        [one] die
       *[other] dice
    } counting as { $face } (at random: { $prior }).
m-hint-why_none = Why: the bids say no more than chance here; your dice decide.
m-hint-bid = A good player would bid **{ $bid }**.
m-hint-challenge = A good player would call “Liar!”.

## m.tuto
m-tuto-welcome = 🎓 **Learn by playing** — a game just for you against CPUs (5 dice, ones wild). It never counts on the leaderboard.
m-tuto-counts = Dice left: { $counts }
m-tuto-won = 🏆 You won the tutorial! Ready for a real table: /liarsdice start.
m-tuto-lost = 🏁 Tutorial over: you are out. Try again with /liarsdice tutorial.

## m.ev
m-ev-round = 🎲 **Round { $round }** — { $you ->
        [yes] you open
       *[no] { $player } opens
    }; { $total } dice in play.
m-ev-bid = 📣 { $you ->
        [yes] You bid
       *[no] { $player } bids
    } **{ $bid }** → { $next }.
m-ev-dudo = 🫣 { $you ->
        [yes] You challenge
       *[no] { $player } challenges
    } { $bidder_you ->
        [yes] your bid
       *[no] { $bidder }'s bid
    }: **{ $bid }**. All the dice:
m-ev-holds = ✅ { $actual ->
        [one] **{ $actual }** die counts as { $face }
       *[other] **{ $actual }** dice count as { $face }
    }{ $jokers ->
        [0] {""}
        [one] {" "}(1 of them a joker)
       *[other] {" "}({ $jokers } of them jokers)
    }: the bid holds.
m-ev-bluff = ❌ { $actual ->
        [0] **No** die counts as { $face }
        [one] Only **{ $actual }** die counts as { $face }
       *[other] Only **{ $actual }** dice count as { $face }
    }{ $jokers ->
        [0] {""}
        [one] {" "}(1 of them a joker)
       *[other] {" "}({ $jokers } of them jokers)
    }: the bid fails.
m-ev-die_lost = 🎲 { $you ->
        [yes] You lose
       *[no] { $player } loses
    } a die ({ $left } left).
m-ev-eliminated = 💀 { $you ->
        [yes] You have no dice left: out.
       *[no] { $player } has no dice left: out.
    }
m-ev-won = 🏆 { $you ->
        [yes] You win the game!
       *[no] { $player } wins the game!
    }

## err
err-bid_too_low = Bid too low: on { $face }s you need at least { $minimum }; on the other values: { $others }.
err-bid_too_low_none = Bid too low, and impossible on that value; the smallest legal bids: { $raises }.
err-invalid_bid = Impossible bid: { $reason }.
err-no_bid = There is no bid to challenge yet.

## metric
metric-dice_lost = dice lost
metric-challenges_won = successful challenges
metric-challenges_lost = failed challenges

## err
err-invalid_bid-face = the value must be 1 to 6
err-invalid_bid-quantity = the quantity must be 1 to the number of dice in play
err-invalid_bid-opening_on_ones = no opening on ones while they are wild

## game
game-any-menteur = Liar's dice

## err
err-invalid_bid-unreadable = that choice is not a bid

## m.tuto
m-tuto-gone = This tutorial is over. Start a new one with /liarsdice tutorial.

## help
help-menteur-line = **Liar's dice** — bids and bluffs on the whole table's dice: /liarsdice start (or /liarsdice tutorial to learn)
help-menteur-title = 🎲 Liar's dice — how to play
help-menteur-how =
    Everyone has dice only they can see. On your turn, bid that at least so many of the whole table's dice show a value ("six 4s": at least six dice showing 4), higher than the previous bid, or challenge it if you do not believe it.
    Then every die is revealed: if the bid holds, the challenger loses a die; otherwise the bidder loses one.
    Out of dice, you are out; the last one in wins. /liarsdice tutorial: a private game against CPUs, with hints.
help-menteur-options =
    • dice: 3, 4 or 5 starting dice per player
    • jokers: ones count for every value (a bid on ones counts only ones)
    • cpu and level: seats played by the CPU, easy, medium or hard
    • calza: the last bid may be called exact (/liarsdice calza): exact, you get a die back (never above the start); otherwise you lose one
    • palifico: first down to one die, you open a round where ones are not wild and the opening's value does not change
help-menteur-short =
    🎯 Bid that at least so many of the whole table's dice show a value, higher each turn, or challenge the previous bid: the loser loses a die.
    The rules and options: /help game:Liar's dice

## m (variants: Calza, Palifico)
m-rules_calza = Calza
m-rules_palifico = Palifico
m-btn-calza = Calza! (exact)
m-turn_line_calza = { $player }: bid higher, call “Liar!”, or call the bid exact: “Calza!”. { $total } dice in play.
m-palifico_open = 🌴 { $player }'s Palifico round: ones are not wild, and the opening's value will not change.
m-palifico_face = 🌴 { $player }'s Palifico round: ones are not wild, every bid stays on { $face }s (only the quantity rises).
m-ev-palifico = 🌴 **Palifico**: { $you ->
        [yes] you have
       *[no] { $player } has
    } one die left. This round, ones are not wild and the opening's value does not change: only the quantity rises.
m-ev-calza = 🎯 { $you ->
        [yes] You call
       *[no] { $player } calls
    } “Calza!”: { $bidder_you ->
        [yes] your bid
       *[no] { $bidder }'s bid
    }, **{ $bid }**, would be exact. All the dice:
m-ev-exact = ✅ Exactly **{ $actual }** { $actual ->
        [one] die counts
       *[other] dice count
    } as { $face }{ $jokers ->
        [0] {""}
        [one] {" "}(1 of them a joker)
       *[other] {" "}({ $jokers } of them jokers)
    }: the calza is right.
m-ev-not_exact = ❌ { $actual ->
        [0] **No** die counts
        [one] **{ $actual }** die counts
       *[other] **{ $actual }** dice count
    } as { $face }{ $jokers ->
        [0] {""}
        [one] {" "}(1 of them a joker)
       *[other] {" "}({ $jokers } of them jokers)
    }, not { $quantity }: the calza is wrong.
m-ev-die_gained = 🎁 { $you ->
        [yes] You get
       *[no] { $player } gets
    } a die back ({ $left ->
        [one] { $left } die
       *[other] { $left } dice
    }).
m-ev-die_capped = 🎁 { $you ->
        [yes] You already have
       *[no] { $player } already has
    } { $left ->
        [one] the starting die
       *[other] all { $left } starting dice
    }: nothing to get back.

## settings
settings-menteur = 🎲 Liar's dice: { $rules }

## err
err-invalid_bid-palifico_face = in a Palifico round, every bid stays on { $locked }s
err-calza_off = Calza is not played at this table (the calza option of /liarsdice start).
err-no_bid_calza = There is no bid to call exact yet.

## ach
ach-game-menteur = Liar's dice
ach-menteur_flawless-name = Flawless
ach-menteur_flawless-description = Win a game without losing a single die.
ach-menteur_last_die-name = By a thread
ach-menteur_last_die-description = Win a game with a single die left.
ach-menteur_exact_calza-name = Calza!
ach-menteur_exact_calza-description = Call a bid exact, and be right.
ach-menteur_ten_challenges-name = Lie detector
ach-menteur_ten_challenges-description = Call "Liar!" rightly 10 times in a row.

## err
# An option out of what its command declares, in the game's own words.
err-option-menteur_start-cpu = That many CPUs is not possible: from { $least } to { $most } at this table.
ach-menteur_tournament-name = Champion
ach-menteur_tournament-description = Win a Liar's dice tournament on this server (`/tournament create`).
