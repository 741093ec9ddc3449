"""The Maya table options as slash-command options, shared by /maya start and /reglages maya,
and the rules of a new table: the server's defaults, then what the starter chose."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.games import maya

# Command option -> Rules field (French option names, English field names).
RULE_FIELDS = {
    "vies": "vies",
    "ouvreur": "ouvreur",
    "photo": "photo",
    "photo_memoire": "photo_memoire",
    "aveugle": "aveugle",
    "tapote": "tapote",
    "seconde_chance": "seconde_chance",
    "warrior": "warrior_fragile",
    "inversion": "inversion_maya",
    "fautes": "fautes",
}

DESCRIPTIONS = {
    "mode": "soiree (gorgées) ou vies (Mia)",
    "vies": "Nombre de vies (Mia)",
    "ouvreur": "Qui ouvre après une perte",
    "photo": "Photo : annoncer la même valeur",
    "photo_memoire": "Photo de mémoire : l'annonce copiée n'est plus affichée",
    "aveugle": "Autoriser le jeu à l'aveugle",
    "tapote": "Autoriser la Tapote",
    "seconde_chance": "Autoriser la Seconde chance",
    "warrior": "Fragile / Warrior face à un Maya",
    "inversion": "Inverser le sens après un Maya",
    "fautes": "Autoriser les fautes de jeu",
}

MODES = [
    app_commands.Choice(name="soirée (gorgées)", value=maya.SOIREE),
    app_commands.Choice(name="vies (Mia)", value=maya.VIES),
]
OPENERS = [
    app_commands.Choice(name="le perdant", value="perdant"),
    app_commands.Choice(name="le suivant", value="suivant"),
]


def given(arguments: dict[str, Any]) -> dict[str, Any]:
    """A command's table options among its arguments (its ``locals()``), ``None`` if not given."""
    return {name: arguments.get(name) for name in RULE_FIELDS}


def rule_options(mode: str, given: dict[str, Any]) -> dict[str, Any]:
    """The Rules options the member chose (``None`` means not given); lives only for Mia."""
    options = {RULE_FIELDS[name]: value for name, value in given.items() if value is not None}
    if mode != maya.VIES:
        options.pop("vies", None)
    return options


def table_rules(
    settings: dict[str, Any], mode: str | None, given: dict[str, Any], gage: str | None
) -> maya.Rules:
    """A new table's rules: the server's defaults (``/reglages``), then the starter's
    options (``None``: not given) and penalty word."""
    defaults = settings.get("maya") or {}
    mode = mode or defaults.get("mode", maya.SOIREE)
    options: dict[str, Any] = dict(defaults.get("options", {}))
    if settings.get("gage") and mode == maya.SOIREE:
        options["gage"] = settings["gage"]
    if mode != maya.VIES:
        options.pop("vies", None)
    options.update(rule_options(mode, given))
    if gage is not None:
        options["gage"] = gage
    return maya.Rules.for_preset(mode, **options)
