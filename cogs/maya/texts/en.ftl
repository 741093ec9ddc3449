### Maya and Mia. (English)

## game
game-maya = Maya
game-mia = Mia

## preset
preset-soiree = party
preset-lives = { $lives ->
        [one] { $lives } life
       *[other] { $lives } lives
    }

## ev
ev-round_started = 🎲 **Round { $round }** — { $opener } opens.
ev-direction_reversed = 🔄 { $player } reverses the direction of play.
ev-rolled_blind = 🙈 { $player } shakes the cup and does not look.
ev-believed = 🤝 { $player } believes { $announcer } and rolls.
ev-believed_blind = 🤝 { $player } believes { $announcer } and rolls, blind 🙈.
ev-tapped = 👆 { $player } taps the cup without looking…
ev-second_chance = 🔁 { $player } shakes a second time, without looking.
ev-announced = 📣 { $player } announces **{ $value }**{ $blind } → to { $next }.
ev-announced_maya = 🔥 { $player } announces **{ $top }** (21){ $blind }! → { $next }
ev-announced_photo = 📸 { $player } announces **Photo**{ $blind } → to { $next }.
ev-blind_suffix = {" "}(blind)
ev-lift_true = 🫣 { $lifter } lifts: { $dice } — { $announcer } announced { $announced }{ $photo }, it was **true**!
ev-lift_bluff = 🫣 { $lifter } lifts: { $dice } — { $announcer } announced { $announced }{ $photo }, it was **a bluff**!
ev-photo_suffix = {" "}(Photo)
ev-fragile = 🙇 { $player } believes the Maya and submits (Fragile).
ev-warrior = ⚔️ { $player } believes the Maya and goes Warrior!
ev-accept_maya = 🙏 { $player } accepts the { $top } without looking.
ev-warrior_success = ⚔️ { $player } rolls { $dice } — **MAYA**! { $verifier } checks and drinks.
ev-warrior_failure = ⚔️ { $player } rolls { $dice } — no Maya, { $verifier } checked.
ev-drank_sip = 🍺 { $player } takes { $count } { $word }.
ev-drank_glass = 🥃 { $player } downs a whole glass!
ev-life_lost = 💔 { $player } loses { $count } { $word } ({ $remaining } left).
ev-eliminated = ☠️ { $player } is out.
ev-game_won = 🏆 { $player } wins the game!
ev-game_players_left = 🏁 Not enough players left: the game is over.
ev-round_ended = ➡️ { $opener } opens the next round.
ev-round_ended_reverse = ➡️ { $opener } opens the next round and may reverse the direction.
ev-player_joined = 👋 { $player } joins the table.
ev-player_joined_waiting = 👋 { $player } joins the table and plays from the next round.
ev-turn_passed = ➡️ { $player } opens now.
ev-round_abandoned = ⛔ The round is cancelled; { $opener } opens the next one.
ev-fault_raised = ⚖️ { $accuser } accuses { $accused } of a **foul**: “{ $motive }”
ev-fault_raised_nomotive = ⚖️ { $accuser } accuses { $accused } of a **foul**!
ev-fault_accepted = ⚖️ { $player } admits the foul.
ev-fault_contested = ⚖️ { $player } contests! The table votes under the accusation.
fault-vote_here = 🗳️ **Vote here**: ✅ guilty · ❌ innocent — the vote closes { $closes } ({ $votes } of { $voters } { $voters ->
    [one] vote
   *[other] votes
}).
ev-fault_guilty = ⚖️ Verdict: { $accused } is **guilty** (✅ guilty: { $guilty }, ❌ innocent: { $innocent }).
ev-fault_innocent = ⚖️ Verdict: { $accused } is **acquitted** (✅ guilty: { $guilty }, ❌ innocent: { $innocent }{ $tie ->
        [yes] {""}; a tie acquits
       *[no] {""}
    }).
ev-fault_appealed = ⚖️ { $player } appeals… **Appeal rejected.** (As always.)
ev-fault_dropped = ⚖️ The accusation is dropped.

## word
# What the players call 21: the Maya at a soirée, the Mia in Mia mode; a double by its die.
word-top_maya = Maya
word-top_mia = Mia
word-double = double { $face }
word-sip = sip
word-sips = sips
word-life = life
word-lives = lives

## me
me-dice = 🎲 Your dice: { $dice }
me-dice_blind = 🙈 You did not look at your dice.
me-dice_tapped = 👆 You tapped a die without looking: you don't know where it landed. Before: { $dice }
me-dice_second = 🔁 You re-rolled without looking. Before: { $dice }
me-no_dice = You have no dice under the cup right now.
me-announce_prompt = Pick your announcement (you must beat { $previous }).
me-announce_prompt_open = Pick your announcement (you open: anything goes).
me-your_turn = Your turn!
me-maya_how = 🔥 Facing a Maya, how do you believe it? **Fragile**: you drink 1 sip, no roll. **Warrior**: you roll once for a Maya; made it, the next player drinks a whole glass; missed, you do.

## table
table-title = 🎲 { $game } — { $preset }
table-lobby_title = 🎲 { $game } table ({ $preset }) — waiting
table-lobby_players = Players ({ $count }/10)
table-lobby_hint = Click **Join** to play; { $starter } starts the game with **Start**.
table-players = Players (direction { $arrow })
table-announcement = Current announcement
table-announcement_hidden = 📸 Photo — remember the announcement before it!
table-no_announcement = —
table-turn = Turn
table-turn_open = { $player } opens the round (roll the dice).
table-turn_announce = { $player } must announce.
table-turn_respond = { $player } must believe or lift { $announcer }.
table-turn_maya = { $player } must answer { $announcer }'s { $top }.
table-deadline = ⏱️ { $when }
table-over = Game over.
table-winner = 🏆 { $player }
table-sips = { $sips } 🍺 · { $glasses } 🥃
table-lives = { $hearts }
table-out = out
table-left = left
table-waiting = next round
table-cpu = CPU { $level }
table-round = Round { $round }

## btn
btn-roll = Roll the dice
btn-roll_blind = Roll blind
btn-roll_reverse = Reverse and roll
btn-believe = Believe
btn-believe_blind = Believe blind
btn-lift = Lift
btn-fragile = Fragile (1 sip)
btn-warrior = Warrior
btn-accept_maya = Accept the { $top }
btn-photo = Photo
btn-tap = Tap { $face }
btn-second_chance = Second chance
btn-fault_accept = Accept
btn-fault_contest = Contest
btn-fault_appeal = Appeal

## select
select-announce = Announce…
select-photo = 📸 Photo ({ $value })

## err
err-announcement_too_low = Too low: you need at least { $minimum }{ $photo ->
        [yes] , or 📸 Photo
       *[no] {""}
    } (the announcement to beat is { $previous }).
err-announcement_too_low_none = Nothing beats { $previous }: believe or lift.
err-unknown_value = “{ $value }” is not a value of the game. Values: 31 … 65, the doubles 11 … 66 (“double 1” … “double 6”), and 21 (the Maya, or Mia).
err-photo_after_photo = No Photo right after a Photo.
err-photo_on_maya = No Photo on a Maya.
err-photo_no_announcement = No Photo yet: nobody has announced in this round.
err-photo_disabled = Photo is not enabled at this table.
err-option_disabled = That option is not enabled at this table.
err-blind_play_already = You already made a blind play this turn.
err-blind_play_not_looked = You must have looked at your dice for that.
err-already_seated = You are already at this table.
err-unknown_fault = That accusation no longer exists.
err-fault_not_allowed = Not possible: { $reason }
err-fault_reason-self = you cannot accuse yourself.
err-fault_reason-already_accusing = you already have an accusation open.
err-fault_reason-not_playing = you must be playing at this table.
err-fault_reason-motive_too_long = the reason is too long (200 characters at most).
err-fault_reason-not_pending_for_you = this accusation is not waiting for you.
err-fault_reason-nothing_to_appeal = there is no verdict to appeal.
err-not_a_voter = You do not vote on this accusation.
err-already_voted = You already voted.
err-not_fault_voter = Only the table's players (except the accused) vote.

## rules
rules-ouvreur-perdant = ➡️ After a loss, the loser opens the next round.
rules-ouvreur-suivant = ➡️ After a loss, the next player opens the next round.
rules-photo = Photo (announce exactly the previous announcement)
rules-photo_memoire = Photo from memory (the copied announcement is no longer shown)
rules-aveugle = Blind play
rules-tapote = Tapote (tap a die)
rules-seconde_chance = Second chance
rules-warrior_fragile = Fragile / Warrior against a Maya
rules-inversion_maya = Reverse the direction after a Maya
rules-fautes = Fouls (/foul)
rules-gage = Forfeit: { $gage }

## note
note-score = 📊 Final tally: { $scores }

## me
me-announced = 📣 Announced: **{ $value }**.

## rank
rank-game-maya = Maya (party)
rank-game-mia = Mia (lives)

## metric
metric-sips = sips drunk
metric-glasses = whole glasses
metric-made_drink = penalties dealt
metric-bluffs_through = bluffs that got through
metric-bluffs_caught = bluffs caught
metric-doubts_right = right doubts
metric-doubts_wrong = wrong doubts
metric-mayas = Mayas rolled
metric-fautes = fouls
metric-lives_lost = lives lost

## settings
settings-gage = 🍺 Forfeit (party): { $gage }
settings-gage_default = 🍺 Forfeit (party): sip
settings-maya = 🎲 Maya: mode { $mode }; options: { $options }

## game
game-any-maya = Maya or Mia

## help
help-maya-line = **Maya and Mia** — two-dice bluffing under the cup: /maya start
help-maya-title = 🎲 Maya and Mia — how to play
help-maya-how =
    In turn, each player rolls two dice under the cup, looks at them in secret and announces a value, true or bluffed, that must beat the previous one: 31, 32 … 65, then the doubles 11 … 66, and 21, the Maya, which beats everything.
    The next player believes (/believe: the cup passes, they roll again and announce higher) or lifts (/lift): if the dice are worth at least the announcement, the lifter loses; otherwise the announcer does.
    Facing a Maya nobody can go higher: you lift, or believe it, at a party as Fragile (1 sip) or as Warrior (try for the Maya), in Mia by accepting it (1 life).
    At a party you lose sips (a whole glass on a Maya); in Mia everyone has lives and the last one in wins.
    Your dice are shown to you alone: the table's buttons are all you need to play.
help-maya-options =
    • mode: party (sips, no end: /maya stop) or lives (Mia)
    • opener: who opens after a loss, the loser or the next player
    • photo: announce "Photo", exactly the previous value (photo_memory: it is no longer shown)
    • blind: announce without looking at your dice
    • tap: after looking, tap one die without looking (one chance in two that it tips over)
    • second_chance: after looking, roll both dice again without looking
    • warrior: facing a Maya, believe it as Fragile (1 sip) or as Warrior (try for the Maya)
    • reversal: after a Maya, whoever received it may reverse the direction of play
    • fouls: accuse a player of a foul (/foul), the table votes
help-maya-short =
    🎯 Announce what your two dice are worth (true or bluffed), higher than the previous announcement; the next player believes you or lifts the cup.
    The rules and options: /help game:Maya and Mia

## ach
ach-game-maya = Maya and Mia
ach-maya_real_maya-name = The real thing
ach-maya_real_maya-description = Announce Maya with a real Maya under the cup, and get lifted.
ach-maya_warrior-name = Warrior
ach-maya_warrior-description = Facing a Maya, believe it as a Warrior and roll a Maya.
ach-maya_untouched-name = Untouchable
ach-maya_untouched-description = Win a game of Mia with 3 lives or more without losing a single one.
ach-maya_ten_lifts-name = Bloodhound
ach-maya_ten_lifts-description = Lift 10 bluffs in a row, at Maya or Mia.

## err
# An option out of what its command declares, in the game's own words.
err-option-maya_start-cpu = That many CPUs is not possible: from { $least } to { $most } at this table.
err-option-maya_tapote-de = Invalid dice.

## perm
# Told privately to whoever opens a Maya table with *faute* votes where the bot lacks what
# they need (the table opens all the same).
perm-faults = ⚠️ The table is open, but foul votes will work less well here, I lack { $count ->
        [one] this permission
       *[other] these permissions
    }: { $permissions }.
perm-faults-add_reactions = • I will not be able to put ✅ and ❌ under accusations: each voter will have to add their reaction themselves.
perm-faults-manage_messages = • I will not be able to take off the reactions of those who may not vote: they will stay under accusations, without counting.

# Told privately to whoever opens a *faute* vote where the bot may not react (the vote goes on).
perm-vote = ⚠️ The vote is open, but I cannot put ✅ and ❌ under the accusation here, I lack { $count ->
        [one] this permission
       *[other] these permissions
    }: { $permissions }.
perm-vote-add_reactions = • Each voter adds their own ✅ (guilty) or ❌ (innocent) reaction: it counts all the same.
perm-vote-read_message_history = • Discord lets me react only to messages I may read back (Read Message History).
ach-maya_tournament-name = Champion
ach-maya_tournament-description = Win a Maya or Mia tournament on this server (`/tournament create`).
