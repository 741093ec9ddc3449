"""Logging that never writes a secret, at any level.

At DEBUG, discord.py logs the URLs it calls (an interaction's answer and its followups carry
the interaction's token, valid 15 minutes) and every gateway event (an INTERACTION_CREATE
carries that token too). The formatter removes them, and the bot token, from every line it
writes, tracebacks included. ``GOBELET_LOG_FORMAT=json`` writes one JSON object a line (for
a log collector), with the same redaction.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from datetime import UTC, datetime

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


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, and exc_info (the
    traceback as text) when there is one."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        # Redacted before encoding: JSON escapes the quotes the token patterns look for.
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage(), self.secrets),
        }
        if record.exc_info:
            entry["exc_info"] = redact(self.formatException(record.exc_info), self.secrets)
        if record.stack_info:
            entry["stack_info"] = redact(self.formatStack(record.stack_info), self.secrets)
        return json.dumps(entry, ensure_ascii=False)


FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup(level: str, secrets: Iterable[str] = (), *, style: str = "text") -> None:
    """Log to stderr at ``level`` as text lines or (``style="json"``) JSON lines, with
    tokens removed."""
    handler = logging.StreamHandler()
    formatter = JsonFormatter(secrets) if style == "json" else RedactingFormatter(FORMAT, secrets)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
