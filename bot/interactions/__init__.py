"""The Discord side every cog shares, below the cogs: answering each interaction once and in
time (``answers``), clicks on components their message no longer shows (``stale``), the
wording of refusals (``refusals``), the bot's permissions in a channel (``permissions``),
what each game's Discord package declares (``packages``), and what a game's Discord side
offers the rest of the bot (``games.GameSide``). The core (``bot/``) reaches the cogs only
through these and the extensions it loads by name; it never imports them."""
