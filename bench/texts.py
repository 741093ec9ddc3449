"""How long a text takes to format (``bot.i18n.t``), on one core.

    .venv/bin/python bench/texts.py [--seconds 1]

Every text of both languages is formatted with sample parameters (names as mentions,
small numbers): once each through Fluent (``first``: what a text said for the first time
costs), then again with the same parameters (``again``: the labels and lines a table
redraws come from the cache). The texts that choose a plural form are shown apart.
"""

import argparse
import time

from bot.i18n import _format, _selectors, keys, t, variables


def sample(lang: str, key: str) -> dict[str, object]:
    counted = _selectors(lang).get(key, frozenset())
    return {name: 3 if name in counted else f"<@{len(name)}>" for name in variables(lang, key)}


def per_text(calls: list[tuple[str, str, dict[str, object]]], run, seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for lang, key, params in calls:
            run(lang, key, params)
        done += len(calls)
    return (time.perf_counter() - start) / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    calls = [(lang, key, sample(lang, key)) for lang in ("fr", "en") for key in keys(lang)]
    plural = [(lang, key, p) for lang, key, p in calls if key in _selectors(lang)]
    print(f"{len(calls)} texts ({len(plural)} with a plural), µs per text")
    for name, chosen in (("all texts", calls), ("plural texts", plural)):
        first = per_text(chosen, lambda lang, key, p: _format(lang, key, dict(p)), args.seconds)
        again = per_text(chosen, lambda lang, key, p: t(lang, key, **p), args.seconds)
        print(f"  {name:<13} first {first:6.1f}   again {again:5.1f}")


if __name__ == "__main__":
    main()
