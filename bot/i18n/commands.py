"""English localizations of the command tree (names, descriptions, options, choices).

Commands are declared in French; Discord shows these English strings to English clients.
"""

from __future__ import annotations

import discord
from discord import app_commands

ENGLISH_LOCALES = {discord.Locale.american_english, discord.Locale.british_english}

# French text as declared -> English text.
ENGLISH: dict[str, str] = {
    # names
    "maya": "maya",
    "start": "start",
    "rejoindre": "join",
    "quitter": "leave",
    "commencer": "begin",
    "stop": "stop",
    "table": "table",
    "regles": "rules",
    "des": "dice",
    "annoncer": "announce",
    "tapote": "tap",
    "secondechance": "secondchance",
    "lancer": "roll",
    "croire": "believe",
    "soulever": "lift",
    "faute": "foul",
    # option names
    "mode": "mode",
    "vies": "lives",
    "cpu": "cpu",
    "niveau": "level",
    "ouvreur": "opener",
    "photo": "photo",
    "photo_memoire": "photo_memory",
    "aveugle": "blind",
    "seconde_chance": "second_chance",
    "warrior": "warrior",
    "inversion": "reversal",
    "fautes": "fouls",
    "gage": "forfeit",
    "valeur": "value",
    "de": "die",
    "inverser": "reverse",
    "style": "style",
    "joueur": "player",
    "motif": "reason",
    # descriptions
    "Maya et Mia : le bluff à deux dés sous le gobelet": "Maya and Mia: two-dice bluffing under the cup",
    "Ouvrir une table de Maya (soirée) ou de Mia (vies) dans ce salon": "Open a Maya (party) or Mia (lives) table in this channel",
    "Rejoindre la table de ce salon": "Join this channel's table",
    "Quitter la table de ce salon": "Leave this channel's table",
    "Lancer la partie (celui ou celle qui a ouvert la table)": "Start the game (whoever opened the table)",
    "Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)": "Stop the game (whoever opened it, or Manage Server)",
    "Voir l'état de la table (en privé)": "See the table's state (privately)",
    "Voir les règles de cette table (en privé)": "See this table's rules (privately)",
    "Voir mes dés (en privé)": "See my dice (privately)",
    "Annoncer une valeur (vraie ou bluffée)": "Announce a value (true or bluffed)",
    "Tapoter un dé sans regarder (puis annoncer à l'aveugle)": "Tap one die without looking (then announce blind)",
    "Relancer les deux dés sans regarder (puis annoncer à l'aveugle)": "Re-roll both dice without looking (then announce blind)",
    "Ouvrir la manche : lancer les dés": "Open the round: roll the dice",
    "Croire l'annonce : le gobelet passe, tu relances": "Believe the announcement: take the cup and roll",
    "Soulever le gobelet : vérifier l'annonce": "Lift the cup: check the announcement",
    "Accuser un joueur de faute de jeu (vote de la table)": "Accuse a player of a foul (the table votes)",
    "soiree (gorgées) ou vies (Mia)": "soiree (sips) or vies (lives, Mia)",
    "Nombre de vies (Mia)": "Number of lives (Mia)",
    "Nombre de joueurs CPU à la table": "Number of CPU players at the table",
    "Niveau des joueurs CPU": "Level of the CPU players",
    "Qui ouvre après une perte": "Who opens after a loss",
    "Photo : annoncer la même valeur": "Photo: announce the same value",
    "Photo de mémoire : l'annonce copiée n'est plus affichée": "Photo from memory: the copied value is hidden",
    "Autoriser le jeu à l'aveugle": "Allow blind play",
    "Autoriser la Tapote": "Allow Tapote",
    "Autoriser la Seconde chance": "Allow Second chance",
    "Fragile / Warrior face à un Maya": "Fragile / Warrior against a Maya",
    "Inverser le sens après un Maya": "Reverse the direction after a Maya",
    "Autoriser les fautes de jeu": "Allow fouls",
    "Le gage (par défaut : gorgée, ou vie pour Mia)": "The forfeit word (default: sip, or life for Mia)",
    "La valeur annoncée (ou photo)": "The announced value (or photo)",
    "Le dé à tapoter": "The die to tap",
    "Sans regarder tes dés": "Without looking at your dice",
    "Inverser le sens du jeu (après un Maya)": "Reverse the direction of play (after a Maya)",
    "Face à un Maya : Fragile ou Warrior": "Against a Maya: Fragile or Warrior",
    "Le joueur accusé": "The accused player",
    "Le motif de l'accusation": "The reason for the accusation",
    # choices
    "soirée (gorgées)": "party (sips)",
    "vies (Mia)": "lives (Mia)",
    "facile": "easy",
    "moyen": "medium",
    "difficile": "hard",
    "le perdant": "the loser",
    "le suivant": "the next player",
    "le premier dé": "the first die",
    "le second dé": "the second die",
    "Fragile (1 gorgée)": "Fragile (1 sip)",
    "Warrior (tenter le Maya)": "Warrior (try for Maya)",
}


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in ENGLISH_LOCALES:
            return None
        return ENGLISH.get(string.message)
