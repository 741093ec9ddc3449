"""Start-up hook for the bot subprocess of the end-to-end tests, and nothing else.

The tests put this directory on the bot's PYTHONPATH, so Python runs this file before
``python -m bot``. It changes two things: discord.py's ``guild_ready_timeout`` (how long the
client waits after the last GUILD_CREATE before it calls ``on_ready``; 2 s by default), which
no emulator answer can shorten; and the wall clock (``time.time``), moved as far as the
emulator's clock travelled before the bot started, so that the bot's deadlines and Discord's
timestamps agree. The bot itself keeps no test-only setting.
"""

import os
import time

_travelled = float(os.environ.get("GOBELET_E2E_CLOCK_OFFSET") or 0)

if _travelled:
    _real_time = time.time

    def _time() -> float:
        return _real_time() + _travelled

    time.time = _time

_raw = os.environ.get("GOBELET_E2E_GUILD_READY_TIMEOUT")

if _raw:
    import discord

    _timeout = float(_raw)

    _original_init = discord.Client.__init__

    def _init(self: discord.Client, *args: object, **options: object) -> None:
        options.setdefault("guild_ready_timeout", _timeout)
        _original_init(self, *args, **options)  # type: ignore[arg-type]

    discord.Client.__init__ = _init  # type: ignore[method-assign]
