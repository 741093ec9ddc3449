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
