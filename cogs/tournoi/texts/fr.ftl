### /tournoi : les tournois du serveur (français)

## tour
tour-title = 🏆 Tournoi de { $game }
tour-game-yades = Yadès
tour-game-menteur = Dés du menteur
tour-game-mia = Mia
tour-game-maya = Maya (soirée)
tour-format-single_elimination = Élimination directe : un match perdu, on sort.
tour-format-swiss = Rondes suisses : { $rounds } rondes, appariées au score, jamais deux fois le même adversaire.
tour-format-swiss_auto = Rondes suisses : appariées au score, jamais deux fois le même adversaire.
tour-format-pools = Poules de { $seats } places : { $qualifiers } par table passent, jusqu'à la table finale.
tour-organizer = Organisé par { $player }.
tour-signup_ends = Inscriptions jusqu'au { $when } ({ $left }).
tour-round_time = Chaque ronde dure { $minutes } min : un joueur absent à l'échéance perd son match par forfait.
tour-entrants = **Inscrits ({ $count })** : { $players }
tour-and_more = et { $count } autres
tour-no_entrants = Personne n'est encore inscrit : cliquez sur **S'inscrire**.
tour-opened = { $player } ouvre un tournoi : inscrivez-vous avec le bouton.
tour-btn-join = S'inscrire
tour-btn-leave = Se désinscrire
tour-btn-start = Lancer
tour-btn-present = Présent
tour-signed = Tu es inscrit·e. Le tournoi te préviendra ici quand ton match commence.
tour-unsigned = Ton inscription est retirée.
tour-started_by_you = Le tournoi est lancé.
tour-too_few = 🏆 Le tournoi n'a pas lieu : { $count ->
        [one] { $count } inscription
       *[other] { $count } inscriptions
    }, il en faut au moins 2.
tour-started = 🏆 Le tournoi de { $game } commence avec { $count } joueurs !
tour-round_opened = La ronde { $number } est ouverte : chaque match appelle ses joueurs, qui cliquent sur **Présent**.
tour-round_ends = Ronde { $number } jusqu'au { $when } ({ $left }).
tour-thread = Tournoi { $game } · ronde { $number } · table { $table }
tour-check_in = 🏆 Ronde { $number } : { $players }, votre match est ici.
    Cliquez sur **Présent** avant le { $when } ({ $left }) : la partie commence quand tout le monde est là ; un absent à l'échéance perd par forfait.
tour-present = Présents : { $players }
tour-awaited = On attend : { $players }
tour-you_are_in = C'est noté : tu es présent·e.
tour-result = 🏆 Ronde { $number }, table { $table } : { $order }
tour-deadline = ⏰ Fin de la ronde { $number }.
tour-forfeit = Forfait : { $players }, absent à l'échéance.
tour-winner = 🏆 { $player } remporte le tournoi de { $game } ! Bravo !
tour-no_winner = 🏆 Le tournoi est terminé sans vainqueur : les derniers joueurs étaient tous absents.
tour-cancelled = 🏆 Le tournoi est annulé par { $player }. Les parties en cours continuent, hors tournoi.
tour-removed_line = { $player } est retiré·e du tournoi.
tour-removed = (retiré·e)
tour-bracket = Tableau
tour-standings = Classement
tour-nobody = personne
tour-round-number = Ronde { $number }
tour-round-final = Finale
tour-line-bye = { $player } : exempt·e, passe sans jouer
tour-line-empty = —
tour-line-upcoming = { $players } : à venir
tour-line-pending = { $players } : en cours
tour-line-played = { $players } → { $winners }
tour-line-forfeit = { $players } → { $winners } (forfait : { $forfeits })
tour-line-unpaired = À apparier après la ronde précédente.
tour-picture-someone = Joueur n° { $id }
tour-picture-forfeit = forfait
tour-picture-bye = exempt
tour-figures-swiss = { $points } pt · Buchholz { $buchholz } · { $wins ->
        [one] { $wins } victoire
       *[other] { $wins } victoires
    }
tour-figures-pools = { $rounds ->
        [one] { $rounds } tour passé
       *[other] { $rounds } tours passés
    } · { $wins ->
        [one] { $wins } table gagnée
       *[other] { $wins } tables gagnées
    }
tour-figures-elimination = { $rounds ->
        [one] { $rounds } tour passé
       *[other] { $rounds } tours passés
    } · { $wins ->
        [one] { $wins } victoire
       *[other] { $wins } victoires
    }

tour-back = 🏆 Le tournoi reprend.
tour-removed_done = C'est fait : le salon est prévenu.

## err
err-tour_removed = L'organisateur t'a retiré·e de ce tournoi.
err-tour_qualifiers_pools = Le nombre de qualifiés ne vaut que pour les poules.
err-tour_not_allowed = Seuls les membres qui gèrent le serveur (ou ont le rôle des organisateurs, `/reglages tournois`) peuvent ouvrir un tournoi.
err-tour_not_organizer = Seul l'organisateur ({ $starter }) ou un membre qui gère le serveur peut faire cela.
err-tour_game = Jeu inconnu : choisis parmi { $games }.
err-tour_format = Ce format ne se joue pas à ce jeu : les duels (élimination, rondes suisses) pour le Yadès et le menteur, les poules pour le menteur, le Mia et le Maya.
err-tour_in_thread = Ouvre le tournoi dans un salon, pas dans un fil : chaque match aura son propre fil.
err-tour_seats_duel = Les duels se jouent à 2 : l'option places ne vaut que pour les poules.
err-tour_seats = Une table de poule a entre { $least } et { $most } places pour ce jeu.
err-tour_qualifiers = Poules : de 1 à { $most } joueurs par table peuvent passer.
err-tour_rounds = Le nombre de rondes ne vaut que pour les rondes suisses.
err-tour_minutes = Une durée entre { $least } et { $most } minutes.
err-tour_busy = Ce salon a déjà un tournoi en cours : `/tournoi voir`.
err-tour_none_here = Pas de tournoi ouvert dans ce salon : `/tournoi creer` en ouvre un.
err-tour_none = Ce serveur n'a pas encore eu de tournoi : `/tournoi creer` en ouvre un.
err-tour_over = Ce tournoi est terminé ou annulé.
err-tour_started = Les inscriptions sont closes : le tournoi a commencé.
err-tour_signed_already = Tu es déjà inscrit·e.
err-tour_not_signed = Tu n'étais pas inscrit·e.
err-tour_full = Le tournoi est complet ({ $most } joueurs).
err-tour_too_few = Il faut au moins 2 inscrits pour lancer le tournoi ({ $count } pour l'instant).
err-tour_match_over = Ce match est déjà joué (ou sa ronde est finie).
err-tour_not_your_match = Ce n'est pas ton match : seuls ses joueurs s'y déclarent présents.
err-tour_too_late = Trop tard : à l'échéance de la ronde, ce match a été perdu par forfait.
err-tour_checked_in = Tu es déjà noté·e présent·e.
err-tour_not_entrant = Cette personne ne joue pas dans ce tournoi (ou en est déjà retirée).
err-tournament_table = C'est une table de tournoi : elle se joue jusqu'au bout (l'organisateur peut retirer un joueur avec `/tournoi retirer`).

## perm
perm-tour_threads = ⚠️ Les matchs de ce tournoi se joueront dans ce salon, l'un après l'autre, et non chacun dans son fil : il me manque { $count ->
        [one] cette permission
       *[other] ces permissions
    } : { $permissions }.
perm-tour_threads-create_public_threads = • Sans « Créer des fils publics », je ne peux pas ouvrir un fil par match.
perm-tour_threads-send_messages_in_threads = • Sans « Envoyer des messages dans les fils », je ne pourrais pas jouer dans les fils.
tour-threads_busy = ⚠️ Ton tournoi { $game } : Discord limite pour quelques minutes le nombre de fils qu'on peut ouvrir sur ce serveur, alors les matchs sans fil se jouent dans { $channel }, l'un après l'autre.

## settings
settings-tournament_role = 🏆 Tournois : organisés par { $role } et ceux qui gèrent le serveur
settings-tournament_role_none = 🏆 Tournois : organisés par ceux qui gèrent le serveur (/reglages tournois pour un rôle)
