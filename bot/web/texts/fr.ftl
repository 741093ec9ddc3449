## web
web-title = Classements de { $server }
web-subtitle = Les parties jouées sur ce serveur avec Gobelet
web-game = Jeu
web-metric = Critère
web-when = Période
web-show = Afficher
web-rank = Rang
web-player = Joueur
web-value = Valeur
web-empty = Personne n'est encore classé ici. À vos gobelets !
web-page = Page { $page } sur { $pages }
web-previous = ← Précédente
web-next = Suivante →
web-ranked = { $ranked ->
        [one] { $ranked } joueur classé
       *[other] { $ranked } joueurs classés
    }
web-someone = Joueur n° { $id }
web-back = ← Les classements
web-player_title = { $player } sur { $server }
web-rating = Classement Elo : { $rating }
web-picture = Le classement Elo de { $player } au fil du temps, et ses parties gagnées et jouées par jeu
web-missing_title = Page introuvable
web-missing = Cette adresse ne mène à aucune page : elle est peut-être mal copiée, ou le serveur a arrêté sa page (ses administrateurs la rallument avec /reglages web).
web-down_title = Un instant…
web-down = Les classements ne répondent pas pour le moment. Réessaie dans un moment.
web-language = Langue :
web-achievements = Succès
web-earned_on = le { $day }
web-busy = Beaucoup de monde regarde les classements en ce moment : réessaie dans quelques secondes.
web-sections = Les pages du serveur
web-leaderboards = Classements
web-tournaments = Tournois
web-tournaments_title = Tournois de { $server }
web-tournaments_subtitle = Les derniers tournois organisés sur ce serveur
web-tournaments_empty = Aucun tournoi sur ce serveur pour le moment.
web-tournament_title = Tournoi de { $game } sur { $server }
web-back_tournaments = ← Les tournois
web-format-single_elimination = Élimination directe
web-format-swiss = Rondes suisses
web-format-pools = Poules et table finale
web-status-signup = Inscriptions ouvertes
web-status-round = Tour { $round } sur { $rounds }
web-status-pool_round = Tour { $round }
web-status-final = Finale
web-status-over = Terminé
web-winner = Vainqueur : { $player }
web-no_winner = Pas de vainqueur
web-signed_up = { $count ->
        [one] { $count } inscrit
       *[other] { $count } inscrits
    }
web-players = { $count ->
        [one] { $count } joueur
       *[other] { $count } joueurs
    }
web-nobody_signed_up = Personne ne s'est encore inscrit.
web-standings_so_far = Classement provisoire
web-standings = Classement
web-bracket = Tableau
web-round = Tour { $number }
web-final = Finale
web-to_pair = Les matchs seront appariés à la fin du tour précédent.
web-col-points = Pts
web-col-buchholz = Bu.
web-col-rounds = Tours
web-col-wins = V.
web-legend-swiss = Pts : points (1 par victoire ou exemption) · Bu. : Buchholz, les points des adversaires rencontrés · V. : victoires
web-legend-single_elimination = Tours : tours passés (exemptions et qualifications d'office comprises) · V. : victoires
web-legend-pools = Tours : tours de poules passés · V. : tables gagnées
web-match-upcoming = À venir
web-match-pending = À jouer
web-match-bye = Exempt
web-match-walkover = Qualifié d'office (les deux adversaires ont déclaré forfait)
web-match-empty = Personne (les deux joueurs d'avant ont déclaré forfait)
web-match-no_winner = Pas de vainqueur
web-forfeit = forfait
web-went_on = qualifié
