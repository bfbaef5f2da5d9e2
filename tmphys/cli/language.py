"""``--lang CODE``: the language of the words a player reads (the command line's own messages stay English).

>>> tmphys build --lang de        # writes output/classic-de/   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tmphys.lang.i18n import DEFAULT, LANGUAGES, canonical_language
from tmphys.text import quote


def _check(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """The canonical code ``--lang`` names, in any case and with ``_`` for ``-`` (``DE``, ``pt_BR``, ``zh-hant``)."""
    found = canonical_language(value)
    if found is None:
        raise click.BadParameter(f"{quote(value)} is not one of tmphys's languages: {' '.join(LANGUAGES)}",
                                 ctx=ctx, param=param)
    return found


def lang_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--lang`` option of a command that writes ``what``; an unknown code is a usage error listing the codes."""
    return click.option("--lang", "lang", default=DEFAULT, show_default=True, metavar="CODE", callback=_check,
                        help=f"Language of {what}, a BCP 47 code: {' '.join(LANGUAGES)}.")


def with_language(folder: Path, lang: str) -> Path:
    """A default output folder for ``lang``: the English one as it always was, another language's beside it with its
    code appended (``output/classic`` → ``output/classic-de``), so the languages' builds sit side by side."""
    return folder if lang == DEFAULT else folder.with_name(f"{folder.name}-{lang}")
