### What every table shares: lobby, turns, refusals, leaderboards, settings, data. (français)

## ev
ev-game_stopped = 🏁 La partie est terminée.
ev-player_left = 🚪 { $player } quitte la table.

## me
me-done = C'est noté.

## btn
btn-join = Rejoindre
btn-rematch = Revanche
btn-start = Commencer
btn-leave = Quitter
btn-dice = Mes dés

## err
err-not_your_turn = Ce n'est pas ton tour : c'est à { $current } de jouer.
err-not_now = Ce n'est pas possible à ce moment de la partie.
err-not_now_possible = Pas maintenant. Ce que tu peux faire : { $possible }.
err-game_over = Cette partie est terminée.
err-invalid_dice = Dés invalides.
err-unknown_player = Tu ne joues pas à cette table.
err-unknown_player_turn = Tu ne joues pas à cette table : c'est à { $current } de jouer.
err-accused_not_playing = { $player } ne joue pas à cette table : seuls les joueurs peuvent être accusés.
err-eliminated = Tu as été éliminé·e de cette partie.
err-table_full = La table est pleine ({ $most } joueurs).
err-invalid_rules = Option invalide : { $option } = { $value }.
err-invalid_players = Il faut entre 2 et 10 joueurs.
err-game_error = Action refusée.
err-dm = Les parties se jouent dans un salon de serveur, pas en message privé.
err-no_table = Il n'y a pas de partie de { $game } dans ce salon. Lancez-en une avec { $command }.
err-table_busy = Une partie de { $game } est déjà en cours dans ce salon ; terminez-la ou jouez dans un autre salon.
err-stale = Ce bouton appartient à une partie terminée.
err-stale_turn = Trop tard : ce bouton date d'un tour déjà joué.
err-rematch_over = Cette revanche n'est plus proposée.
err-rematch_not_yours = Seuls les joueurs de cette partie peuvent lancer sa revanche.
err-wrong_message = Ce bouton n'est pas sur ce message : rien n'a été joué.
err-not_starter = Seul·e { $starter } (ou un membre avec « Gérer le serveur ») peut faire ça.
err-not_in_lobby = La partie a déjà commencé.
err-need_players = Il faut au moins 2 joueurs (CPU compris) pour commencer.
err-not_at_table = Tu ne joues pas à cette table.
err-rate_limited = Doucement ! Attends encore { $seconds } s avant une nouvelle accusation.
err-storage = La partie n'a pas pu être enregistrée ; rien n'a été joué. Réessaie dans un instant.
err-internal = Oups, quelque chose s'est mal passé de notre côté. L'action n'a pas été jouée.
err-closing = Le bot s'arrête pour un instant (redémarrage ou mise à jour) : rien n'a été fait. Réessaie dans une minute !
err-unknown_command = Cette commande n'est plus disponible.

## note
note-timeout = ⏱️ { $player } n'a pas joué à temps : le CPU joue à sa place.
note-timeout_leave = ⏱️ { $player } a laissé passer 3 tours de suite.
# The end of a game: the final standings.
end-standings = 🏅 **Classement final**
end-place = { $place }. { $player } — { $detail }
end-out_in = éliminé·e à la manche { $round }
end-left = · { $player } a quitté la table
end-tally = 📊 **Bilan de la soirée** (qui a le plus bu en tête)
end-drinker = 🍻 Pilier de comptoir : { $player }
end-sober = 😇 Sobre de la soirée : { $player }
table-your_turn = 🔔 À toi de jouer, { $player } !
note-back = 🔁 La table est de retour après un redémarrage du bot. On reprend !
note-table_opened = 🎲 { $player } ouvre une table de { $game } ({ $preset }).
note-started = 🎲 La partie commence ! Ordre de jeu : { $order }
note-lobby_joined = 👋 { $player } rejoint la table.
note-lobby_left = 🚪 { $player } quitte la table.
note-lobby_closed = 🚪 { $player } quitte la table ; plus personne : la table est fermée.
note-rematch = 🔁 Revanche ! { $player } relance la même table, mêmes options. On attend { $players } : la partie commence dès que tout le monde a rejoint.
note-rematch_call = 🔁 { $players } : revanche ? Cliquez **Rejoindre** sur la table.
note-rematch_alone = 🔁 Revanche ! { $player } relance la même table, mêmes options.
thread-name = { $game } — { $player }
thread-opened = { $text } La table est dans le fil { $thread }.
thread-ended = 🏁 Partie de { $game } terminée dans { $thread } :
thread-closed = 🚪 La table de { $game } dans { $thread } est fermée.
perm-threads = ⚠️ La table est ouverte dans ce salon et non dans un fil : il me manque { $count ->
        [one] cette permission
       *[other] ces permissions
    } : { $permissions }.
perm-threads-create_public_threads = • Sans « Créer des fils publics », je ne peux pas ouvrir de fil pour la table.
perm-threads-send_messages_in_threads = • Sans « Envoyer des messages dans les fils », je ne pourrais pas jouer dans le fil.
thread-busy = ⚠️ La table est ouverte dans ce salon et non dans un fil : Discord limite pour quelques minutes le nombre de fils qu'on peut ouvrir sur ce serveur.
thread-refused = ⚠️ La table est ouverte dans ce salon et non dans un fil : Discord a refusé d'en ouvrir un ici.
note-stopped_by = 🛑 { $player } arrête la partie.

## err
err-not_started = La partie n'a pas encore commencé.

## level
level-facile = facile
level-moyen = moyen
level-difficile = difficile

## demo
demo-private = { $player }, en privé

## rank
rank-title = 🏆 { $game } — { $metric } ({ $period })
rank-period-semaine = cette semaine
rank-period-mois = ce mois-ci
rank-period-tout = depuis toujours
rank-empty = Personne n'est encore classé ici. À vos gobelets !
rank-page = page { $page }/{ $pages }
rank-yours = Ton rang : { $rank } ({ $value })

## season
season-span = saison { $number } ({ $first } – { $last })
season-current = { $span }, en cours
season-closed = 🏁 Fin de la { $span } : le podium
season-next = La saison { $number } commence : chaque classement Elo repart à mi-chemin de 1000.

## metric
metric-games = parties
metric-rating = classement Elo
metric-wins = victoires

## stats
stats-title = 📊 Statistiques de { $player } sur ce serveur
stats-empty = Aucune partie comptée pour l'instant.
stats-plot_rating = Classement Elo
stats-plot_results = Parties gagnées / jouées
stats-plot_no_rating = Pas encore de partie classée à plusieurs

## err
err-unknown_metric = Critère inconnu pour ce jeu. Critères : { $metrics }

## ach
# An achievement earned at the end of a game, and the list /succes shows.
ach-earned = 🏅 Succès débloqué pour { $player } : **{ $name }** — { $description }
ach-title = 🏅 Succès de { $player } sur ce serveur : { $earned }/{ $total }
ach-held = 🏅 **{ $name }** — { $description } ({ $when })
ach-locked = 🔒 { $name } — { $description }
stats-achievements = 🏅 Succès

## settings
settings-title = ⚙️ **Réglages du serveur**
settings-timer = ⏱️ Minuteur : { $seconds } s par tour
settings-timer_default = ⏱️ Minuteur : par défaut
settings-language = 🌐 Langue des messages publics : { $language }
settings-language_auto = 🌐 Langue des messages publics : celle du serveur
settings-season = 🏁 Saisons : { $months } mois ; podium annoncé dans { $channel }
settings-season_quiet = 🏁 Saisons : { $months } mois ; podium non annoncé (choisis un salon avec /reglages saison salon:)
settings-threads_on = 🧵 Tables : chacune dans un fil public du salon
settings-threads_off = 🧵 Tables : dans le salon (/reglages fils pour les ouvrir dans un fil)
settings-season_now = Saison en cours : { $span }, se termine le { $closes } ({ $relative }).
settings-season_none = Pas encore de saison : la première commence avec la première partie comptée sur ce serveur.
settings-saved = ✅ Réglages enregistrés (ils s'appliquent aux nouvelles tables).
settings-web_on = 🌐 La page web du serveur est allumée : { $address }
    Qui a cette adresse voit les classements et les statistiques du serveur, avec le nom sous lequel chacun a rejoint les tables. Pour l'éteindre : /reglages web activer:non ; pour lui donner une autre adresse : /reglages web nouvelle_adresse:oui.
settings-web_off = 🌐 La page web du serveur est éteinte : son adresse ne mène plus à rien.

## err
err-need_manage_guild = Il faut la permission « Gérer le serveur » pour changer les réglages.

## data
data-what = Voici ce que Gobelet garde de toi sur ce serveur : tes statistiques, ton classement Elo (celui de chaque saison finie et son évolution), tes succès, et le nom sous lequel tu as rejoint les tables (pour les feuilles de Yadès et la page web du serveur). L'historique des coups joués reste attaché aux parties.
data-sure = Effacer toutes tes statistiques, tes succès, ton classement et ton nom gardé sur ce serveur ? C'est définitif.
data-confirm = Oui, tout effacer
data-erased = 🗑️ C'est fait : { $rows ->
        [one] { $rows } ligne effacée.
       *[other] { $rows } lignes effacées.
    }
data-not_yours = Ce bouton ne t'est pas destiné.
data-expired = ⌛ Cette demande a expiré : rien n'a été effacé. Relance /donnees effacer pour recommencer.

## err
err-no_table_lift = Il n'y a pas de partie dans ce salon : /soulever sert au Maya ({ $command }) et aux dés du menteur ({ $other }).
err-cpu_count = Nombre de CPU impossible : de 0 à { $most } à cette table.
err-cpu_level = Niveau de CPU inconnu : choisis parmi { $levels }.
err-text_empty = Le texte est vide.
err-text_too_long = Texte trop long : { $most } caractères au plus.
err-text_link = Pas de lien ici, s'il te plaît : juste des mots.
err-unknown_game = Jeu inconnu. Jeux : { $games }
err-unknown_period = Période inconnue. Périodes : { $periods }
err-season_or_period = Choisis une période ou une saison, pas les deux.
err-web_unavailable = La page web n'est pas disponible sur ce bot : la personne qui l'héberge doit lui donner un port (GOBELET_WEB_PORT) et une adresse (GOBELET_WEB_URL).
err-web_is_off = La page web du serveur est éteinte. Pour l'allumer : /reglages web activer:oui.
err-no_season = Ce serveur n'a pas encore de saison : elle commence avec la première partie comptée.
err-unknown_season = Saison inconnue : { $last ->
        [one] ce serveur n'a que la saison 1.
       *[other] ce serveur a les saisons 1 à { $last }.
    }
err-season_length = Une saison dure { $lengths } mois.
err-season_channel = Je ne peux pas écrire dans { $channel } : donne-moi les permissions « Voir le salon », « Envoyer des messages » et « Intégrer des liens », ou choisis un autre salon.
err-season_channel_and_quiet = Choisis un salon pour les annonces ou arrête-les, pas les deux.
err-season_no_channel = Choisis d'abord le salon des annonces : /reglages saison salon:…
err-timer_range = Le minuteur va de { $least } à { $most } secondes.
err-unknown_language = Langue inconnue : { $languages }.

## help
help-title = 🎲 Gobelet — l'aide
help-shared = Pour toutes les tables
help-more = /aide jeu:… explique un jeu en détail. Une table par salon : ouvre-la, les autres la rejoignent avec le bouton.
help-options = Les options de la table
help-commands = Les commandes
help-mentioned = 👋 Pour jouer, tape /aide : les jeux, comment on joue, les commandes. Ensuite /maya start, /yades defi ou /menteur start ouvrent une table ici.

## err
# An option out of what its command declares to Discord (a modified client): said by what
# it broke, or in its command's own words (err-option-<command>-<option>).
err-option_range = Désolé, { $value } n'est pas possible pour `{ $option }` : choisis de { $least } à { $most }, s'il te plaît.
err-option_least = Désolé, { $value } n'est pas possible pour `{ $option }` : choisis au moins { $least }, s'il te plaît.
err-option_most = Désolé, { $value } n'est pas possible pour `{ $option }` : choisis au plus { $most }, s'il te plaît.
err-option_choice = Désolé, « { $value } » n'est pas un choix de `{ $option }`. Choisis, s'il te plaît, parmi : { $choices }.
err-option_channel = Désolé, ce salon ne convient pas pour `{ $option }` : choisis-en un autre, s'il te plaît.
err-text_too_short = Texte trop court : { $least } caractères au moins.
err-option-reglages_minuteur-secondes = Le minuteur va de { $least } à { $most } secondes.
err-option-reglages_langue-langue = Langue inconnue : { $values }.
err-option-reglages_saison-duree = Une saison dure { $values } mois.
err-option-classement-jeu = Jeu inconnu. Jeux : { $codes }
err-option-classement-periode = Période inconnue. Périodes : { $codes }

## perm
# The bot's permissions, as Discord names them to a French client.
perm-view_channel = Voir le salon
perm-send_messages = Envoyer des messages
perm-send_messages_in_threads = Envoyer des messages dans les fils
perm-create_public_threads = Créer des fils publics
perm-embed_links = Intégrer des liens
perm-read_message_history = Voir les anciens messages
perm-add_reactions = Ajouter des réactions
perm-manage_messages = Gérer les messages

## err
err-bot_permissions = Je ne peux pas jouer dans ce salon, il me manque { $count ->
        [one] cette permission
       *[other] ces permissions
    } : { $permissions }. Demande à quelqu'un qui gère le serveur de me { $count ->
        [one] la
       *[other] les
    } donner ici, ou ouvre la table dans un autre salon.
