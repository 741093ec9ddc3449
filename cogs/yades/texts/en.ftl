### Yadès. (English)

## yades
yades-picture-upper = Upper total
yades-picture-bonus = Bonus ({ $target }+)
yades-picture-lower = Lower total
yades-picture-five_bonus = { $box } bonus
yades-picture-total = TOTAL
yades-picture-player = Player { $number }

## game
game-yades = Yadès

## y.preset
y-preset-yades = Yadès
y-preset-classique = classic (Yahtzee)

## y
y-stake = stake { $mise } { $mise ->
        [one] pt
       *[other] pts
    }
y-lobby =
    Players:
    { $players }

    Up to { $max } players: join with the button or /yades join.
y-seat = { $player } — **{ $total }** { $total ->
        [one] pt
       *[other] pts
    } ({ $filled }/{ $boxes } boxes)
y-over = 🏁 Game over.
y-turn = 🎯 { $player }'s turn — roll { $roll }/{ $rolls }
y-dice = Dice: { $dice }
y-deadline = ⏱️ Turn ends { $when }

## y.btn
y-btn-roll = Roll the dice
y-btn-reroll = Re-roll ({ $left } left)
y-btn-accept = Accept
y-btn-refuse = Decline

## y
y-option = { $box }: { $points } { $points ->
        [one] pt
       *[other] pts
    }
y-select = Score a box…

## y.ev
y-ev-rolled = 🎲 { $player } rolls ({ $roll }/3): { $dice }
y-ev-scored = ✍️ { $player } scores **{ $points }** in { $box } ({ $dice }).
y-ev-scratched = ✗ { $player } scratches { $box } ({ $dice }).
y-ev-bonus_upper = ⭐ { $player } earns the upper bonus: +{ $points }!
y-ev-bonus_five_of_a_kind = ⭐ { $player } earns a five-of-a-kind bonus: +{ $points }!
y-ev-won = 🏆 { $player } wins the game!
y-ev-tied = 🏆 A tie: { $player } share the win!
y-ev-rank = { $place }. { $player } — **{ $total }** { $total ->
        [one] pt
       *[other] pts
    }

## y
y-summary = 📊 Expected points lost against perfect play:
y-summary_line = • { $player }: { $points } pts

## y.challenge
y-challenge-text = ⚔️ { $challenger } challenges { $challenged } to a Yadès duel ({ $preset }){ $stake }! { $challenged }, you have { $minutes } minutes to answer.
y-challenge-stake = , stake: { $mise } { $mise ->
        [one] pt
       *[other] pts
    }
y-challenge-accepted = ⚔️ { $challenged } takes up { $challenger }'s challenge!
y-challenge-refused = 🙅 { $challenged } declines { $challenger }'s challenge.
y-challenge-expired = ⌛ { $challenger }'s challenge to { $challenged } has expired.
y-challenge-gone = This challenge has expired or was already answered.
y-challenge-not_you = This challenge is for { $player }: you cannot answer it.
y-challenge-self = Challenge someone else (or the bot itself to play the CPU).

## y
y-cpu_duel = 🤖 { $player } takes on the CPU in a Yadès duel!

## y.advice
y-advice-title = 🧠 With perfect play you would end on **{ $total }** pts on average. The choices, best first:
y-advice-line = • { $choice } → { $total } expected pts (costs { $loss })
y-advice-score = score { $box } ({ $points } { $points ->
        [one] pt
       *[other] pts
    })
y-advice-keep = keep { $dice } and re-roll
y-advice-roll = roll the dice
y-advice-roll_all = re-roll everything

## y.sheet
y-sheet-title = 📋 Score sheets
y-sheet-bonus = Upper: { $upper }/{ $target } (bonus at { $target }+)
y-sheet-total = {"*"}*Total: { $total }**
y-sheet-player = Player { $n }

## y.box
y-box-as = Aces
y-box-deux = Twos
y-box-trois = Threes
y-box-quatre = Fours
y-box-cinq = Fives
y-box-six = Sixes
y-box-brelan = Three of a kind
y-box-carre = Four of a kind
y-box-full = Full house
y-box-petite_suite = Small straight
y-box-grande_suite = Large straight
y-box-yades = Yadès
y-box-prime_yades = Yadès bonus
y-box-yahtzee = Yahtzee
y-box-chance = Chance

## err
err-invalid_keep = Invalid dice to keep: give their positions (e.g. "1 3 5") or faces (e.g. "⚅⚅").
err-must_roll_all = The first roll of a turn rolls all five dice.
err-no_rolls_left = No re-rolls left: score a box.
err-nothing_to_roll = You are keeping all five dice: score a box instead.
err-not_rolled = Roll the dice first.
err-unknown_box = There is no such box on the sheet.
err-box_filled = That box is already filled.
err-joker_forced = With this Yahtzee (joker rule) you must score another box.

## rank
rank-game-yades = Yadès

## metric
metric-best_score = best score
metric-avg_score = average score
metric-yades_rolled = Yadès rolled
metric-avg_points_lost = points lost per game against perfect play (fewest first)
metric-stake_won = stakes won
metric-stake_lost = stakes lost

## settings
settings-yades = 🎲 Yadès: { $preset } sheet; boxes removed: { $removed }; added: { $added }

## y.box
y-box-paire = Pair
y-box-suite_5 = 5-dice straight

## game
game-any-yades = Yadès

## err
err-stake = That stake is not possible: from 0 to { $most } points.
err-challenge_pending = You already challenged { $player }; that challenge expires { $until }.
err-challenge_pause = Easy! Wait { $seconds } more seconds before a new challenge.

## help
help-yades-line = **Yadès** — the five-dice duel with a score sheet: /yades challenge or /yades start
help-yades-title = 🎲 Yadès — how to play
help-yades-how =
    On your turn you roll the five dice up to three times: after each roll, keep the dice you want (the table's buttons, or /yades keep) and roll the others again.
    Then you fill one box of your sheet (the menu, or /yades score); if nothing fits, you scratch one for 0.
    When every box is filled, the highest total wins. Every die is public; /yades advice tells you the best choice, privately.
help-yades-options =
    • preset: yades (14 boxes, the game's own sheet) or classic (the 13 boxes of Yahtzee)
    • stake: leaderboard points put at stake in a challenge, taken by the winner
    • cpu and level: play the CPU, easy, medium or hard (perfect play)
    • /settings yades: remove or add boxes to the server's sheet
help-yades-short =
    🎯 Three rolls a turn: keep the dice you like, roll the others again, then fill one box of your sheet. The highest total wins.
    The rules and options: /help game:Yadès

## ach
ach-game-yades = Yadès
ach-yades_prime-name = Yadès of Yadès
ach-yades_prime-description = Score a second Yadès once the Yadès box holds 50: the Prime Yadès.
ach-yades_first_roll-name = Yadès in one
ach-yades_first_roll-description = Roll a Yadès on the first roll of a turn.
ach-yades_perfect-name = Perfect game
ach-yades_perfect-description = Fill your whole sheet without losing a single point to the expert.

## err
# An option out of what its command declares, in the game's own words.
err-option-yades_start-cpu = That many CPUs is not possible: from { $least } to { $most } at this table.
err-option-yades_defi-mise = That stake is not possible: from { $least } to { $most } points.
ach-yades_tournament-name = Champion
ach-yades_tournament-description = Win a Yadès tournament on this server (`/tournament create`).
