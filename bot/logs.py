"""Logging that never writes a secret, at any level.

At DEBUG, discord.py logs the URLs it calls (an interaction's answer and its followups carry
the interaction's token, valid 15 minutes) and every gateway event (an INTERACTION_CREATE
carries that token too). The formatter removes them, and the bot token, from every line it
writes, tracebacks included.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

HIDDEN = "<hidden>"

# /interactions/{id}/{token}/callback and /webhooks/{application}/{token}[/...]
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+")
# 'token': '...' in a logged payload (Python or JSON quoting)
_FIELD_TOKEN = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*""")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    text = _URL_TOKEN.sub(rf"\1{HIDDEN}", text)
    text = _FIELD_TOKEN.sub(rf"\1{HIDDEN}", text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, HIDDEN)
    return text


class RedactingFormatter(logging.Formatter):
    def __init__(self, fmt: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(fmt)
        self.secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.secrets)


FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup(level: str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level``, with tokens removed."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(FORMAT, secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
