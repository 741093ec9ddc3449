### Dés du menteur. (français)

## game
game-menteur = Dés du menteur

## rank
rank-game-menteur = Dés du menteur

## m
m-rules_jokers = { $dice } dés, les 1 sont jokers
m-rules_plain = { $dice } dés, sans jokers
m-lobby =
    Autour de la table : { $players }
    Rejoignez avec /menteur rejoindre ; le créateur lance avec /menteur commencer.
m-out = éliminé·e
m-left = parti·e
m-players = Joueurs (dés restants)
m-bids = Annonces de la manche { $round }
m-turn = À qui le tour
m-turn_line = { $player } : annoncer plus haut, ou contester : « Menteur ! ». { $total } dés en jeu.
m-footer_won = Partie terminée.
m-dice_left = { $count ->
    [one] 1 dé restant
   *[other] { $count } dés restants
}
m-winner = 🏆 { $player } gagne la partie.

## m.btn
m-btn-dudo = Menteur ! (contester)

## m
m-select = Annoncer…
# A bid: how many dice (in words up to twenty), showing which value ("cinq 4").
m-numbers = un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize dix-sept dix-huit dix-neuf vingt
# (« cinq 4 » : pas de marque du pluriel en français, $quantity sert à l'anglais « five 4s ».)
m-bid = { $words } { $face }{ $quantity ->
   *[other] {""}
}
m-panel_closed = 🎲 Ta partie est finie à cette table.
m-your_dice = 🎲 Tes dés ({ $count }) : { $dice }
m-current_bid = Annonce à battre : **{ $bid }** ({ $player })
m-you = toi

## m.hint
m-hint-chance = Probabilité que « { $bid } » soit vraie, vu tes dés et les annonces des autres : **{ $percent }** (tes dés seuls : { $alone }).
m-hint-why = Pourquoi : on annonce surtout ce qu'on a ; d'après ses annonces, { $player } a sans doute { $expected } { $amount ->
        [one] dé
       *[other] dés
    } pour { $face } (au hasard : { $prior }).
m-hint-why_none = Pourquoi : les annonces n'en disent pas plus que le hasard ici ; tes dés décident.
m-hint-bid = Un bon joueur annoncerait **{ $bid }**.
m-hint-challenge = Un bon joueur contesterait : « Menteur ! »

## m.tuto
m-tuto-welcome = 🎓 **Apprendre en jouant** — une partie rien que pour toi contre des CPU (5 dés, les 1 sont jokers). Elle ne compte pas au classement.
m-tuto-counts = Dés restants : { $counts }
m-tuto-won = 🏆 Tu as gagné le tutoriel ! Prêt·e pour une vraie table : /menteur start.
m-tuto-lost = 🏁 Tutoriel terminé : tu es éliminé·e. Recommence avec /menteur tutoriel.

## m.ev
m-ev-round = 🎲 **Manche { $round }** — { $you ->
        [yes] tu ouvres
       *[no] { $player } ouvre
    } ; { $total } dés en jeu.
m-ev-bid = 📣 { $you ->
        [yes] Tu annonces
       *[no] { $player } annonce
    } **{ $bid }** → à { $next }.
m-ev-dudo = 🫣 { $you ->
        [yes] Tu soulèves
       *[no] { $player } soulève
    } { $bidder_you ->
        [yes] ton annonce
       *[no] l'annonce de { $bidder }
    } : **{ $bid }**. Tous les dés :
m-ev-holds = ✅ { $actual ->
        [one] **{ $actual }** dé compte pour { $face }
       *[other] **{ $actual }** dés comptent pour { $face }
    }{ $jokers ->
        [0] {""}
        [one] {" "}(dont 1 joker)
       *[other] {" "}(dont { $jokers } jokers)
    } : l'annonce tient.
m-ev-bluff = ❌ { $actual ->
        [0] **Aucun** dé ne compte pour { $face }
        [one] Seulement **{ $actual }** dé compte pour { $face }
       *[other] Seulement **{ $actual }** dés comptent pour { $face }
    }{ $jokers ->
        [0] {""}
        [one] {" "}(dont 1 joker)
       *[other] {" "}(dont { $jokers } jokers)
    } : l'annonce tombe.
m-ev-die_lost = 🎲 { $you ->
        [yes] Tu perds
       *[no] { $player } perd
    } un dé ({ $left ->
        [0] plus aucun
        [one] { $left } restant
       *[other] { $left } restants
    }).
m-ev-eliminated = 💀 { $you ->
        [yes] Tu n'as plus de dés : éliminé·e.
       *[no] { $player } n'a plus de dés : éliminé·e.
    }
m-ev-won = 🏆 { $you ->
        [yes] Tu gagnes la partie !
       *[no] { $player } gagne la partie !
    }

## err
err-bid_too_low = Annonce trop basse : sur les { $face }, il faut au moins { $minimum } ; sur les autres valeurs : { $others }.
err-bid_too_low_none = Annonce trop basse, et impossible sur cette valeur ; les plus petites annonces légales : { $raises }.
err-invalid_bid = Annonce impossible : { $reason }.
err-no_bid = Il n'y a pas encore d'annonce à soulever.

## metric
metric-dice_lost = dés perdus
metric-challenges_won = contestations réussies
metric-challenges_lost = contestations ratées

## err
err-invalid_bid-face = la valeur doit être de 1 à 6
err-invalid_bid-quantity = la quantité doit être de 1 au nombre de dés en jeu
err-invalid_bid-opening_on_ones = on n'ouvre pas sur les 1 quand ils sont jokers

## game
game-any-menteur = dés du menteur

## err
err-invalid_bid-unreadable = ce choix ne correspond à aucune annonce

## m.tuto
m-tuto-gone = Ce tutoriel est terminé. Relance-le avec /menteur tutoriel.

## help
help-menteur-line = **Dés du menteur** — annonces et bluff sur les dés de toute la table : /menteur start (ou /menteur tutoriel pour apprendre)
help-menteur-title = 🎲 Dés du menteur — comment jouer
help-menteur-how =
    Chacun a ses dés, qu'il est seul à voir. À ton tour, annonce qu'au moins tant de dés de toute la table montrent une valeur (« six 4 » : au moins six dés à 4), plus haut que l'annonce précédente, ou soulève-la si tu n'y crois pas.
    On révèle alors tous les dés : si l'annonce tient, celui qui a soulevé perd un dé ; sinon, l'annonceur en perd un.
    Sans dé, on est éliminé ; le dernier en jeu gagne. /menteur tutoriel : une partie privée contre des CPU, avec des conseils.
help-menteur-options =
    • des : 3, 4 ou 5 dés de départ par joueur
    • jokers : les 1 comptent pour toutes les valeurs (une annonce sur les 1 ne compte que les 1)
    • cpu et niveau : des places tenues par le CPU, facile, moyen ou difficile
    • calza : on peut dire la dernière annonce exacte (/menteur calza) : exacte, on regagne un dé (jamais plus qu'au départ) ; sinon on en perd un
    • palifico : à un dé pour la première fois, on ouvre une manche où les 1 ne sont pas jokers et où la valeur de l'ouverture ne change pas
help-menteur-short =
    🎯 Annonce qu'au moins tant de dés de toute la table montrent une valeur, plus haut à chaque tour, ou soulève l'annonce d'avant : le perdant perd un dé.
    Les règles et les options : /aide jeu:Dés du menteur

## m (variantes : Calza, Palifico)
m-rules_calza = Calza
m-rules_palifico = Palifico
m-btn-calza = Calza ! (exacte)
m-turn_line_calza = { $player } : annoncer plus haut, contester : « Menteur ! », ou dire l'annonce exacte : « Calza ! ». { $total } dés en jeu.
m-palifico_open = 🌴 Manche Palifico de { $player } : les 1 ne sont pas jokers, et la valeur de l'ouverture ne changera pas.
m-palifico_face = 🌴 Manche Palifico de { $player } : les 1 ne sont pas jokers, on reste sur les { $face } (seule la quantité monte).
m-ev-palifico = 🌴 **Palifico** : { $you ->
        [yes] tu n'as
       *[no] { $player } n'a
    } plus qu'un dé. Cette manche, les 1 ne sont pas jokers et la valeur de l'ouverture ne change pas : seule la quantité monte.
m-ev-calza = 🎯 { $you ->
        [yes] Tu dis
       *[no] { $player } dit
    } « Calza ! » : { $bidder_you ->
        [yes] ton annonce
       *[no] l'annonce de { $bidder }
    }, **{ $bid }**, serait exacte. Tous les dés :
m-ev-exact = ✅ Exactement **{ $actual }** { $actual ->
        [one] dé compte
       *[other] dés comptent
    } pour { $face }{ $jokers ->
        [0] {""}
        [one] {" "}(dont 1 joker)
       *[other] {" "}(dont { $jokers } jokers)
    } : la calza est juste.
m-ev-not_exact = ❌ { $actual ->
        [0] **Aucun** dé ne compte
        [one] **{ $actual }** dé compte
       *[other] **{ $actual }** dés comptent
    } pour { $face }{ $jokers ->
        [0] {""}
        [one] {" "}(dont 1 joker)
       *[other] {" "}(dont { $jokers } jokers)
    }, pas { $quantity } : la calza est ratée.
m-ev-die_gained = 🎁 { $you ->
        [yes] Tu récupères
       *[no] { $player } récupère
    } un dé ({ $left ->
        [one] { $left } dé
       *[other] { $left } dés
    }).
m-ev-die_capped = 🎁 { $you ->
        [yes] Tu as déjà { $left ->
            [one] ton dé de départ
           *[other] tes { $left } dés de départ
        }
       *[no] { $player } a déjà { $left ->
            [one] son dé de départ
           *[other] ses { $left } dés de départ
        }
    } : rien à récupérer.

## settings
settings-menteur = 🎲 Dés du menteur : { $rules }

## err
err-invalid_bid-palifico_face = en manche Palifico, on reste sur les { $locked }
err-calza_off = La Calza n'est pas jouée à cette table (option calza de /menteur start).
err-no_bid_calza = Il n'y a pas encore d'annonce à dire exacte.

## ach
ach-game-menteur = Dés du menteur
ach-menteur_flawless-name = Sans une égratignure
ach-menteur_flawless-description = Gagner une partie sans perdre un seul dé.
ach-menteur_last_die-name = Sur le fil
ach-menteur_last_die-description = Gagner une partie avec un seul dé en main.
ach-menteur_exact_calza-name = Calza !
ach-menteur_exact_calza-description = Dire qu'une enchère est exacte, et qu'elle le soit.
ach-menteur_ten_challenges-name = Détecteur de mensonges
ach-menteur_ten_challenges-description = Crier « Menteur ! » à raison 10 fois d'affilée.

## err
# An option out of what its command declares, in the game's own words.
err-option-menteur_start-cpu = Nombre de CPU impossible : de { $least } à { $most } à cette table.
ach-menteur_tournament-name = Champion·ne
ach-menteur_tournament-description = Gagner un tournoi de Dés du menteur sur ce serveur (`/tournoi creer`).
