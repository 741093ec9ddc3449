"""``python -m bot.probe``: exit 0 when the running bot's ``/health`` says ok, else 1.

The image's HEALTHCHECK and docker-compose's run it inside the container (python:slim has
no curl). It asks the port the bot itself listens on, ``GOBELET_HTTP_PORT``, on the
loopback unless ``GOBELET_HTTP_HOST`` names one address. Standard library only: it runs
every few seconds and must start fast.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 4.0
ANY_ADDRESS = {"", "0.0.0.0", "::"}


def url(env: dict[str, str]) -> str | None:
    """The health endpoint's address, or None when the bot serves none."""
    port = env.get("GOBELET_HTTP_PORT", "").strip()
    if not port:
        return None
    host = env.get("GOBELET_HTTP_HOST", "").strip()
    if host in ANY_ADDRESS:
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/health"


def main() -> int:
    address = url(dict(os.environ))
    if address is None:
        print("GOBELET_HTTP_PORT is not set: the bot serves no health endpoint", file=sys.stderr)
        return 1
    try:
        with urllib.request.urlopen(address, timeout=TIMEOUT_SECONDS) as response:
            print(response.read().decode(errors="replace"))
    except urllib.error.HTTPError as error:  # 503: the body says which part is down
        print(error.read().decode(errors="replace"), file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{address}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
