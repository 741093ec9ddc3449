"""The table runtime: the record of a table, the runner (apply + forced steps + persist in
one transaction), the scoring of a finished game, the turns that play themselves, the clock
that fires every stored deadline, and games played alone (a tutorial)."""

from bot.table.record import CPU_LEVELS, CPU_NAMES, Cpu, Table, TableError
from bot.table.runner import Deadlines, TableRunner
from bot.table.turns import Decision, Herald

__all__ = [
    "CPU_LEVELS",
    "CPU_NAMES",
    "Cpu",
    "Deadlines",
    "Decision",
    "Herald",
    "Table",
    "TableError",
    "TableRunner",
]
