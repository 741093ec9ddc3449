### Maya and Mia. (français)

## game
game-maya = Maya
game-mia = Mia

## preset
preset-soiree = soirée
preset-lives = { $lives ->
        [one] { $lives } vie
       *[other] { $lives } vies
    }

## ev
ev-round_started = 🎲 **Manche { $round }** — { $opener } ouvre.
ev-direction_reversed = 🔄 { $player } inverse le sens du jeu.
ev-rolled_blind = 🙈 { $player } secoue le gobelet et ne regarde pas.
ev-believed = 🤝 { $player } croit { $announcer } et relance.
ev-believed_blind = 🤝 { $player } croit { $announcer } et relance, à l'aveugle 🙈.
ev-tapped = 👆 { $player } tapote le gobelet sans regarder…
ev-second_chance = 🔁 { $player } secoue une seconde fois, sans regarder.
ev-announced = 📣 { $player } annonce **{ $value }**{ $blind } → à { $next }.
ev-announced_maya = 🔥 { $player } annonce **{ $top }** (21){ $blind } ! → { $next }
ev-announced_photo = 📸 { $player } annonce **Photo**{ $blind } → à { $next }.
ev-blind_suffix = {" "}(à l'aveugle)
ev-lift_true = 🫣 { $lifter } soulève : { $dice } — { $announcer } avait annoncé { $announced }{ $photo }, c'était **vrai** !
ev-lift_bluff = 🫣 { $lifter } soulève : { $dice } — { $announcer } avait annoncé { $announced }{ $photo }, c'était **du bluff** !
ev-photo_suffix = {" "}(Photo)
ev-fragile = 🙇 { $player } croit le Maya et se soumet (Fragile).
ev-warrior = ⚔️ { $player } croit le Maya et tente le Warrior !
ev-accept_maya = 🙏 { $player } accepte le { $top } sans regarder.
ev-warrior_success = ⚔️ { $player } lance { $dice } — **MAYA** ! { $verifier } vérifie et boit.
ev-warrior_failure = ⚔️ { $player } lance { $dice } — pas de Maya, { $verifier } a vérifié.
ev-drank_sip = 🍺 { $player } prend { $count } { $word }.
ev-drank_glass = 🥃 { $player } boit son verre cul sec !
ev-life_lost = 💔 { $player } perd { $count } { $word } (reste { $remaining }).
ev-eliminated = ☠️ { $player } est éliminé·e.
ev-game_won = 🏆 { $player } gagne la partie !
ev-game_players_left = 🏁 Il ne reste plus assez de joueurs : la partie est terminée.
ev-round_ended = ➡️ { $opener } ouvre la manche suivante.
ev-round_ended_reverse = ➡️ { $opener } ouvre la manche suivante et peut inverser le sens.
ev-player_joined = 👋 { $player } rejoint la table.
ev-player_joined_waiting = 👋 { $player } rejoint la table et jouera dès la manche suivante.
ev-turn_passed = ➡️ C'est à { $player } d'ouvrir.
ev-round_abandoned = ⛔ La manche est annulée ; { $opener } ouvre la suivante.
ev-fault_raised = ⚖️ { $accuser } accuse { $accused } de **faute de jeu** : « { $motive } »
ev-fault_raised_nomotive = ⚖️ { $accuser } accuse { $accused } de **faute de jeu** !
ev-fault_accepted = ⚖️ { $player } reconnaît la faute.
ev-fault_contested = ⚖️ { $player } conteste ! La table vote sous l'accusation.
fault-vote_here = 🗳️ **Votez ici** : ✅ coupable · ❌ innocent — fin du vote { $closes } ({ $votes } { $votes ->
    [one] vote
   *[other] votes
} sur { $voters }).
ev-fault_guilty = ⚖️ Verdict : { $accused } est **coupable** (✅ coupable : { $guilty }, ❌ innocent : { $innocent }).
ev-fault_innocent = ⚖️ Verdict : { $accused } est **acquitté·e** (✅ coupable : { $guilty }, ❌ innocent : { $innocent }{ $tie ->
        [yes] {" "}; l'égalité acquitte
       *[no] {""}
    }).
ev-fault_appealed = ⚖️ { $player } fait appel… **Appel rejeté.** (Comme toujours.)
ev-fault_dropped = ⚖️ L'accusation est abandonnée.

## word
# What the players call 21: the Maya at a soirée, the Mia in Mia mode; a double by its die.
word-top_maya = Maya
word-top_mia = Mia
word-double = double { $face }
word-sip = gorgée
word-sips = gorgées
word-life = vie
word-lives = vies

## me
me-dice = 🎲 Tes dés : { $dice }
me-dice_blind = 🙈 Tu n'as pas regardé tes dés.
me-dice_tapped = 👆 Tu as tapoté un dé sans regarder : tu ne sais pas où il est tombé. Avant : { $dice }
me-dice_second = 🔁 Tu as relancé sans regarder. Avant : { $dice }
me-no_dice = Tu n'as pas de dés sous le gobelet en ce moment.
me-announce_prompt = Choisis ton annonce (il faut battre { $previous }).
me-announce_prompt_open = Choisis ton annonce (tu ouvres : tout est permis).
me-your_turn = C'est à toi !
me-maya_how = 🔥 Face à un Maya, tu le crois comment ? **Fragile** : tu bois 1 gorgée, sans lancer. **Warrior** : tu lances une fois pour faire Maya ; réussi, le suivant boit un verre entier, raté, c'est toi.

## table
table-title = 🎲 { $game } — { $preset }
table-lobby_title = 🎲 Table de { $game } ({ $preset }) — en attente
table-lobby_players = Joueurs ({ $count }/10)
table-lobby_hint = Cliquez **Rejoindre** pour jouer ; { $starter } lance la partie avec **Commencer**.
table-players = Joueurs (sens { $arrow })
table-announcement = Annonce en cours
table-announcement_hidden = 📸 Photo — souvenez-vous de l'annonce d'avant !
table-no_announcement = —
table-turn = Au tour de
table-turn_open = { $player } ouvre la manche (lancer les dés).
table-turn_announce = { $player } doit annoncer.
table-turn_respond = { $player } doit croire ou soulever { $announcer }.
table-turn_maya = { $player } doit répondre au { $top } de { $announcer }.
table-deadline = ⏱️ { $when }
table-over = Partie terminée.
table-winner = 🏆 { $player }
table-sips = { $sips } 🍺 · { $glasses } 🥃
table-lives = { $hearts }
table-out = éliminé·e
table-left = parti·e
table-waiting = manche suivante
table-cpu = CPU { $level }
table-round = Manche { $round }

## btn
btn-roll = Lancer les dés
btn-roll_blind = Lancer à l'aveugle
btn-roll_reverse = Inverser le sens et lancer
btn-believe = Croire
btn-believe_blind = Croire à l'aveugle
btn-lift = Soulever
btn-fragile = Fragile (1 gorgée)
btn-warrior = Warrior
btn-accept_maya = Accepter le { $top }
btn-photo = Photo
btn-tap = Tapoter { $face }
btn-second_chance = Seconde chance
btn-fault_accept = Accepter
btn-fault_contest = Contester
btn-fault_appeal = Faire appel

## select
select-announce = Annoncer…
select-photo = 📸 Photo ({ $value })

## err
err-announcement_too_low = Annonce trop basse : il faut au moins { $minimum }{ $photo ->
        [yes] , ou 📸 Photo
       *[no] {""}
    } (l'annonce à battre est { $previous }).
err-announcement_too_low_none = Plus rien ne bat { $previous } : crois ou soulève.
err-unknown_value = « { $value } » n'est pas une valeur du jeu. Valeurs : 31 … 65, les doubles 11 … 66 (« double 1 » … « double 6 »), et 21 (le Maya, ou Mia).
err-photo_after_photo = Pas de Photo juste après une Photo.
err-photo_on_maya = Pas de Photo sur un Maya.
err-photo_no_announcement = Photo impossible : personne n'a encore annoncé dans cette manche.
err-photo_disabled = La Photo n'est pas activée à cette table.
err-option_disabled = Cette option n'est pas activée à cette table.
err-blind_play_already = Tu as déjà fait un coup à l'aveugle ce tour-ci.
err-blind_play_not_looked = Il faut avoir regardé tes dés pour ça.
err-already_seated = Tu es déjà à cette table.
err-unknown_fault = Cette accusation n'existe plus.
err-fault_not_allowed = Impossible : { $reason }
err-fault_reason-self = tu ne peux pas t'accuser toi-même.
err-fault_reason-already_accusing = tu as déjà une accusation en cours.
err-fault_reason-not_playing = il faut jouer à cette table.
err-fault_reason-motive_too_long = le motif est trop long (200 caractères au plus).
err-fault_reason-not_pending_for_you = cette accusation ne t'attend pas.
err-fault_reason-nothing_to_appeal = il n'y a pas de verdict à contester.
err-not_a_voter = Tu ne votes pas sur cette accusation.
err-already_voted = Tu as déjà voté.
err-not_fault_voter = Seuls les joueurs de la table (sauf l'accusé·e) votent.

## rules
rules-ouvreur-perdant = ➡️ Après une perte, le perdant ouvre la manche suivante.
rules-ouvreur-suivant = ➡️ Après une perte, le joueur suivant ouvre la manche suivante.
rules-photo = Photo (annoncer exactement l'annonce précédente)
rules-photo_memoire = Photo de mémoire (l'annonce copiée n'est plus affichée)
rules-aveugle = Jouer à l'aveugle
rules-tapote = Tapote
rules-seconde_chance = Seconde chance
rules-warrior_fragile = Fragile / Warrior face à un Maya
rules-inversion_maya = Inverser le sens après un Maya
rules-fautes = Fautes de jeu (/faute)
rules-gage = Gage : { $gage }

## note
note-score = 📊 Bilan : { $scores }

## me
me-announced = 📣 Annonce faite : **{ $value }**.

## rank
rank-game-maya = Maya (soirée)
rank-game-mia = Mia (vies)

## metric
metric-sips = gorgées bues
metric-glasses = verres cul sec
metric-made_drink = pénalités infligées
metric-bluffs_through = bluffs passés
metric-bluffs_caught = bluffs démasqués
metric-doubts_right = doutes justes
metric-doubts_wrong = doutes ratés
metric-mayas = Mayas lancés
metric-fautes = fautes de jeu
metric-lives_lost = vies perdues

## settings
settings-gage = 🍺 Gage (soirée) : { $gage }
settings-gage_default = 🍺 Gage (soirée) : gorgée
settings-maya = 🎲 Maya : mode { $mode } ; options : { $options }

## game
game-any-maya = Maya ou de Mia

## help
help-maya-line = **Maya et Mia** — le bluff à deux dés sous le gobelet : /maya start
help-maya-title = 🎲 Maya et Mia — comment jouer
help-maya-how =
    Chacun à son tour lance deux dés sous le gobelet, les regarde en secret et annonce une valeur, vraie ou bluffée, qui doit battre la précédente : 31, 32 … 65, puis les doubles 11 … 66, et 21, le Maya, qui bat tout.
    Le suivant croit (/croire : le gobelet passe, il relance et annonce plus haut) ou soulève (/soulever) : si les dés valent au moins l'annonce, celui qui a soulevé perd ; sinon, l'annonceur perd.
    Face à un Maya, on ne peut plus monter : on soulève, ou on le croit, en soirée en Fragile (1 gorgée) ou en Warrior (tenter le Maya), en Mia en l'acceptant (1 vie).
    En soirée, on perd des gorgées (un verre entier sur un Maya) ; en Mia, chacun a ses vies et le dernier en jeu gagne.
    Tes dés ne s'affichent qu'à toi : les boutons de la table suffisent pour jouer.
help-maya-options =
    • mode : soirée (gorgées, sans fin : /maya stop) ou vies (Mia)
    • ouvreur : qui ouvre après une perte, le perdant ou le suivant
    • photo : annoncer « Photo », exactement la valeur précédente (photo_memoire : elle n'est plus affichée)
    • aveugle : annoncer sans regarder ses dés
    • tapote : après avoir regardé, tapoter un dé sans regarder (une chance sur deux qu'il bascule)
    • seconde_chance : après avoir regardé, relancer les deux dés sans regarder
    • warrior : face à un Maya, le croire en Fragile (1 gorgée) ou en Warrior (tenter le Maya)
    • inversion : après un Maya, celui qui l'a reçu peut inverser le sens du jeu
    • fautes : accuser un joueur de faute de jeu (/faute), la table vote
help-maya-short =
    🎯 Annonce ce que valent tes deux dés (vrai ou bluffé), plus haut que l'annonce d'avant ; le suivant te croit ou soulève le gobelet.
    Les règles et les options : /aide jeu:Maya et Mia

## ach
ach-game-maya = Maya et Mia
ach-maya_real_maya-name = Maya pour de vrai
ach-maya_real_maya-description = Annoncer Maya avec un vrai Maya sous le gobelet, et se faire soulever.
ach-maya_warrior-name = Warrior
ach-maya_warrior-description = Face à un Maya, le croire en Warrior et faire un Maya.
ach-maya_untouched-name = Intouchable
ach-maya_untouched-description = Gagner une partie de Mia à 3 vies ou plus sans en perdre une seule.
ach-maya_ten_lifts-name = Flair infaillible
ach-maya_ten_lifts-description = Soulever 10 bluffs d'affilée, au Maya comme au Mia.

## err
# An option out of what its command declares, in the game's own words.
err-option-maya_start-cpu = Nombre de CPU impossible : de { $least } à { $most } à cette table.
err-option-maya_tapote-de = Dés invalides.

## perm
# Told privately to whoever opens a Maya table with *faute* votes where the bot lacks what
# they need (the table opens all the same).
perm-faults = ⚠️ La table est ouverte, mais les votes de *faute de jeu* marcheront moins bien ici, il me manque { $count ->
        [one] cette permission
       *[other] ces permissions
    } : { $permissions }.
perm-faults-add_reactions = • Je ne pourrai pas mettre ✅ et ❌ sous les accusations : chaque votant devra ajouter sa réaction lui-même.
perm-faults-manage_messages = • Je ne pourrai pas retirer les réactions de ceux qui ne votent pas : elles resteront sous les accusations, sans compter.

# Told privately to whoever opens a *faute* vote where the bot may not react (the vote goes on).
perm-vote = ⚠️ Le vote est ouvert, mais je ne peux pas mettre ✅ et ❌ sous l'accusation ici, il me manque { $count ->
        [one] cette permission
       *[other] ces permissions
    } : { $permissions }.
perm-vote-add_reactions = • Chaque votant ajoute lui-même sa réaction ✅ (coupable) ou ❌ (innocent) : elle compte tout autant.
perm-vote-read_message_history = • Discord ne me laisse réagir qu'aux messages que je peux relire (« Voir les anciens messages »).
ach-maya_tournament-name = Champion·ne
ach-maya_tournament-description = Gagner un tournoi de Maya ou Mia sur ce serveur (`/tournoi creer`).
