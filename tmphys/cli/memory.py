"""``--memory``: the memory budget of a command that searches (solve, play, generate --rate, booklet), shared by
every process it starts (``tmphys.solve.budget``)."""

from __future__ import annotations

from typing import Any

import click

from tmphys.solve.budget import DEFAULT_BYTES, LEAST_BYTES, MOST_BYTES, command_budget, parse_size, size_text


class MemorySize(click.ParamType):
    """A size in bytes (``2G``, ``1500M``, ``512MiB``): refused in one line unless it reads as one, from
    ``LEAST_BYTES`` (what one search needs) to ``MOST_BYTES``."""

    name = "size"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        try:
            n = parse_size(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)
        if n < LEAST_BYTES:
            self.fail(f"{size_text(n)} is less than a search needs: give at least {size_text(LEAST_BYTES)}", param,
                      ctx)
        if n > MOST_BYTES:
            self.fail(f"{size_text(n)} is more than any machine has: give at most {size_text(MOST_BYTES)}", param,
                      ctx)
        return n


MEMORY = MemorySize()


def memory_option(when: str = "") -> Any:
    """``--memory SIZE``: the command's memory budget; ``when`` opens the help text (``"With --rate: "``)."""
    return click.option("--memory", type=MEMORY, default=None, metavar="SIZE",
                        help=f"{when}{'t' if when else 'T'}he memory every process of the command may take together "
                             f"(default {size_text(DEFAULT_BYTES)}, or less where the machine has less available): "
                             "2G, 1500M, 512MiB (K, M, G: powers of 1,000; KiB, MiB, GiB: of 1,024).")


def command_memory(memory: int | None) -> int:
    """The command's budget in bytes (``--memory``, else the default), said on stderr in one line when the memory
    available lowered it."""
    budget, note = command_budget(memory)
    if note:
        click.echo(note, err=True)
    return budget
