"""``--criteria FILE``: users' own criteria cards, read once per command into the library it hands down.

>>> tmphys check --criteria my-cards.toml        # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import Any

import click

from tmphys.game.criteria import CriteriaFileError, Library, load_library

CRITERIA_HELP = ("A criteria file of your own cards (docs/criteria.md), read with the published 48; repeatable. "
                 "A problem names its cards by number and its verification cards by ID, as the published ones.")


def _library(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> Library | None:
    """The published library with the files' cards (None when no file is given), its warnings told once."""
    if not value:
        return None
    first: dict[str, str] = {}  # a file given twice (under any of its names) is read once, where first given
    for name in value:
        first.setdefault(os.path.realpath(name), name)
    files = list(first.values())
    try:
        found = load_library(files)
    except CriteriaFileError as e:
        raise click.UsageError(str(e)) from None
    for warning in found.warnings:
        click.echo(f"tmphys: warning: {warning}", err=True)
    return found


def criteria_option(f: Any) -> Any:
    """``--criteria FILE`` (repeatable), given to the command as ``criteria``: a ``Library`` or None."""
    return click.option("--criteria", "criteria", multiple=True, metavar="FILE", callback=_library,
                        help=CRITERIA_HELP)(f)
