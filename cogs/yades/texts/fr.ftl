### Yadès. (français)

## yades
yades-picture-upper = Total haut
yades-picture-bonus = Prime ({ $target } et +)
yades-picture-lower = Total bas
yades-picture-five_bonus = Prime { $box }
yades-picture-total = TOTAL
yades-picture-player = Joueur { $number }

## game
game-yades = Yadès

## y.preset
y-preset-yades = Yadès
y-preset-classique = classique (Yahtzee)

## y
y-stake = mise { $mise } { $mise ->
        [one] pt
       *[other] pts
    }
y-lobby =
    Joueurs :
    { $players }

    Jusqu'à { $max } joueurs : rejoignez avec le bouton ou /yades rejoindre.
y-seat = { $player } — **{ $total }** { $total ->
        [one] pt
       *[other] pts
    } ({ $filled }/{ $boxes } cases)
y-over = 🏁 Partie terminée.
y-turn = 🎯 Au tour de { $player } — lancer { $roll }/{ $rolls }
y-dice = Dés : { $dice }
y-deadline = ⏱️ Fin du tour { $when }

## y.btn
y-btn-roll = Lancer les dés
y-btn-reroll = Relancer ({ $left ->
        [one] { $left } restant
       *[other] { $left } restants
    })
y-btn-accept = Accepter
y-btn-refuse = Refuser

## y
y-option = { $box } : { $points } { $points ->
        [one] pt
       *[other] pts
    }
y-select = Marquer une case…

## y.ev
y-ev-rolled = 🎲 { $player } lance ({ $roll }/3) : { $dice }
y-ev-scored = ✍️ { $player } marque **{ $points }** en { $box } ({ $dice }).
y-ev-scratched = ✗ { $player } raye la case { $box } ({ $dice }).
y-ev-bonus_upper = ⭐ { $player } décroche la prime des 63 : +{ $points } !
y-ev-bonus_five_of_a_kind = ⭐ { $player } gagne une prime Yadès : +{ $points } !
y-ev-won = 🏆 { $player } gagne la partie !
y-ev-tied = 🏆 Égalité : { $player } se partagent la victoire !
y-ev-rank = { $place }. { $player } — **{ $total }** { $total ->
        [one] pt
       *[other] pts
    }

## y
y-summary = 📊 Points espérés perdus face au jeu parfait :
y-summary_line = • { $player } : { $points } pts

## y.challenge
y-challenge-text = ⚔️ { $challenger } défie { $challenged } en duel de Yadès ({ $preset }){ $stake } ! { $challenged }, tu as { $minutes } minutes pour répondre.
y-challenge-stake = , mise : { $mise } { $mise ->
        [one] pt
       *[other] pts
    }
y-challenge-accepted = ⚔️ { $challenged } relève le défi de { $challenger } !
y-challenge-refused = 🙅 { $challenged } décline le défi de { $challenger }.
y-challenge-expired = ⌛ Le défi de { $challenger } à { $challenged } a expiré.
y-challenge-gone = Ce défi a expiré ou a déjà reçu sa réponse.
y-challenge-not_you = Ce défi s'adresse à { $player } : toi, tu ne peux pas y répondre.
y-challenge-self = Défie quelqu'un d'autre (ou le bot lui-même pour jouer contre le CPU).

## y
y-cpu_duel = 🤖 { $player } affronte le CPU en duel de Yadès !

## y.advice
y-advice-title = 🧠 Avec le jeu parfait, tu finirais en moyenne à **{ $total }** pts. Les choix, du meilleur au moins bon :
y-advice-line = • { $choice } → { $total } pts espérés (coût { $loss })
y-advice-score = marquer { $box } ({ $points } { $points ->
        [one] pt
       *[other] pts
    })
y-advice-keep = garder { $dice } et relancer
y-advice-roll = lancer les dés
y-advice-roll_all = tout relancer

## y.sheet
y-sheet-title = 📋 Feuilles de score
y-sheet-bonus = Haut : { $upper }/{ $target } (prime à { $target } et +)
y-sheet-total = {"*"}*Total : { $total }**
y-sheet-player = Joueur { $n }

## y.box
y-box-as = As
y-box-deux = Deux
y-box-trois = Trois
y-box-quatre = Quatre
y-box-cinq = Cinq
y-box-six = Six
y-box-brelan = Brelan
y-box-carre = Carré
y-box-full = Full
y-box-petite_suite = Petite suite
y-box-grande_suite = Grande suite
y-box-yades = Yadès
y-box-prime_yades = Prime Yadès
y-box-yahtzee = Yahtzee
y-box-chance = Chance

## err
err-invalid_keep = Dés à garder invalides : donne leurs positions (ex. « 1 3 5 ») ou leurs faces (ex. « ⚅⚅ »).
err-must_roll_all = Le premier lancer d'un tour lance les cinq dés.
err-no_rolls_left = Plus de relance : marque une case.
err-nothing_to_roll = Tu gardes les cinq dés : marque une case plutôt.
err-not_rolled = Lance d'abord les dés.
err-unknown_box = Cette case n'existe pas sur la feuille.
err-box_filled = Cette case est déjà remplie.
err-joker_forced = Avec ce Yadès (joker), tu dois marquer une autre case.

## rank
rank-game-yades = Yadès

## metric
metric-best_score = meilleur score
metric-avg_score = score moyen
metric-yades_rolled = Yadès lancés
metric-avg_points_lost = points perdus par partie face au jeu parfait (le moins d’abord)
metric-stake_won = mises gagnées
metric-stake_lost = mises perdues

## settings
settings-yades = 🎲 Yadès : feuille { $preset } ; cases retirées : { $removed } ; ajoutées : { $added }

## y.box
y-box-paire = Paire
y-box-suite_5 = Suite de 5

## game
game-any-yades = Yadès

## err
err-stake = Mise impossible : de 0 à { $most } points.
err-challenge_pending = Tu as déjà défié { $player } ; ce défi expire { $until }.
err-challenge_pause = Doucement ! Attends encore { $seconds } s avant un nouveau défi.

## help
help-yades-line = **Yadès** — le duel à cinq dés et feuille de score : /yades defi ou /yades start
help-yades-title = 🎲 Yadès — comment jouer
help-yades-how =
    À ton tour, tu lances les cinq dés jusqu'à trois fois : après chaque lancer, garde les dés que tu veux (les boutons de la table, ou /yades garder) et relance les autres.
    Puis tu remplis une case de ta feuille (le menu, ou /yades marquer) ; si rien ne va, tu en rayes une pour 0.
    Quand toutes les cases sont remplies, le plus gros total gagne. Tous les dés sont publics ; /yades conseil te dit en privé le meilleur choix.
help-yades-options =
    • preset : yades (14 cases, la feuille du jeu) ou classique (les 13 cases du Yahtzee)
    • mise : des points de classement mis en jeu dans un défi, que le gagnant prend
    • cpu et niveau : jouer contre le CPU, facile, moyen ou difficile (le jeu parfait)
    • /reglages yades : retirer ou ajouter des cases à la feuille du serveur
help-yades-short =
    🎯 Trois lancers par tour : garde les dés qui te plaisent, relance les autres, puis remplis une case de ta feuille. Le plus gros total gagne.
    Les règles et les options : /aide jeu:Yadès

## ach
ach-game-yades = Yadès
ach-yades_prime-name = Yadès de Yadès
ach-yades_prime-description = Marquer un second Yadès une fois la case Yadès à 50 : la Prime Yadès.
ach-yades_first_roll-name = Yadès sec
ach-yades_first_roll-description = Faire un Yadès dès le premier lancer d'un tour.
ach-yades_perfect-name = Partie parfaite
ach-yades_perfect-description = Remplir toute sa feuille sans perdre un seul point face à l'expert.

## err
# An option out of what its command declares, in the game's own words.
err-option-yades_start-cpu = Nombre de CPU impossible : de { $least } à { $most } à cette table.
err-option-yades_defi-mise = Mise impossible : de { $least } à { $most } points.
ach-yades_tournament-name = Champion·ne
ach-yades_tournament-description = Gagner un tournoi de Yadès sur ce serveur (`/tournoi creer`).
