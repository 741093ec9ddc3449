"""A real browser for the web page's tests: headless Chromium (Debian's ``chromium``
package, or ``GOBELET_TEST_CHROMIUM``), driven by Playwright through that executable.

Without Chromium the browser tests are skipped with the reason, except under CI, where
they fail: CI installs it and must run them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
# A phone's screen, where most people open a link a friend sent them.
PHONE = {"width": 390, "height": 844}


def chromium() -> str:
    """The Chromium executable, or skip (fail under CI) with why there is none."""
    chosen = os.environ.get("GOBELET_TEST_CHROMIUM", "").strip()
    found = [chosen] if chosen else [c for c in CANDIDATES if Path(c).exists()]
    found += [p for p in (shutil.which("chromium"),) if p]
    for path in found:
        if Path(path).exists():
            return path
    why = "no Chromium: install Debian's chromium package, or set GOBELET_TEST_CHROMIUM"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"CI runs the browser tests, but {why}")
    pytest.skip(why)


@asynccontextmanager
async def browser() -> AsyncIterator[Browser]:
    executable = chromium()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            await launched.close()


@asynccontextmanager
async def phone(launched: Browser, *, locale: str = "fr-FR") -> AsyncIterator[Page]:
    """A page on a phone-sized screen, its browser speaking ``locale``."""
    context = await launched.new_context(
        viewport=PHONE, device_scale_factor=2, locale=locale, is_mobile=True, has_touch=True
    )
    try:
        yield await context.new_page()
    finally:
        await context.close()
