"""A token Discord rejects: a clear message and exit code 2, never a traceback."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator


async def test_a_rejected_token_says_so_and_exits_2(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    process = BotProcess(emulator, tmp_path, env={"DISCORD_TOKEN": "not-the-token"})
    done = await asyncio.to_thread(
        subprocess.run,
        process.command,
        env=process.env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "rejected DISCORD_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr
    assert "not-the-token" not in done.stdout + done.stderr
    assert not emulator.sessions  # it never reached the gateway
