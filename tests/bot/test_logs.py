"""Logs never carry a token, as text lines or as JSON lines."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs
from bot.config import ConfigError, load_settings

TOKEN = "MTIzNDU2Nzg5.bot-token.s3cr3t"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzOmFiYw"


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    stream = io.StringIO()
    yield logging.getLogger("gobelet.test"), stream
    root.handlers[:], level = saved
    root.setLevel(level)


def _log_everything(logger: logging.Logger) -> None:
    logger.info("logged in with %s", TOKEN)
    logger.debug("POST /interactions/123456/%s/callback", INTERACTION_TOKEN)
    logger.debug("event {'token': '%s', 'id': '9'}", INTERACTION_TOKEN)
    try:
        raise RuntimeError(f"request to /webhooks/42/{INTERACTION_TOKEN} with {TOKEN}")
    except RuntimeError:
        logger.exception("it failed")


def _setup(stream: io.StringIO, style: str) -> None:
    logs.setup("DEBUG", secrets=[TOKEN], style=style)
    logging.getLogger().handlers[0].setStream(stream)  # type: ignore[attr-defined]


def test_json_logs_are_one_object_a_line(captured) -> None:
    logger, stream = captured
    _setup(stream, "json")
    _log_everything(logger)
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [entry["level"] for entry in entries] == ["INFO", "DEBUG", "DEBUG", "ERROR"]
    assert {entry["logger"] for entry in entries} == {"gobelet.test"}
    assert entries[0]["message"] == f"logged in with {logs.HIDDEN}"
    assert entries[0]["time"].endswith("+00:00")
    assert "exc_info" not in entries[0]
    traceback = entries[-1]["exc_info"]
    assert traceback.startswith("Traceback") and "RuntimeError" in traceback
    assert entries[-1]["message"] == "it failed"


@pytest.mark.parametrize("style", ["text", "json"])
def test_no_token_is_written_in_a_message_or_a_traceback(captured, style: str) -> None:
    logger, stream = captured
    _setup(stream, style)
    _log_everything(logger)
    written = stream.getvalue()
    assert TOKEN not in written
    assert INTERACTION_TOKEN not in written
    assert written.count(logs.HIDDEN) == 6
    assert "Traceback" in written  # the traceback was written, without its tokens


def test_the_log_format_is_text_unless_told_json() -> None:
    assert load_settings({}).log_format == "text"
    assert load_settings({"GOBELET_LOG_FORMAT": " JSON "}).log_format == "json"
    with pytest.raises(ConfigError, match=r"GOBELET_LOG_FORMAT must be text or json \(got 'xml'\)"):
        load_settings({"GOBELET_LOG_FORMAT": "xml"})


@pytest.mark.parametrize("style", ["text", "json"])
def test_no_database_password_is_written_either(captured, style: str) -> None:
    logger, stream = captured
    url = "postgresql://gobelet:pg-S3cret@db:5432/gobelet"
    settings = load_settings({"GOBELET_DATABASE_URL": url, "DISCORD_TOKEN": TOKEN})
    logs.setup("DEBUG", secrets=settings.secrets, style=style)
    logging.getLogger().handlers[0].setStream(stream)  # type: ignore[attr-defined]
    logger.warning("cannot connect to %s", url)
    try:
        raise OSError(f"connection to {url} refused")
    except OSError:
        logger.exception("storage down")
    written = stream.getvalue()
    assert "pg-S3cret" not in written and "Traceback" in written
    assert written.count(logs.HIDDEN) == 2
