"""Click types for numbers written in ASCII digits only: click's own take ``٣`` (Arabic-Indic three) and ``1_000``,
as Python's int() and float() do, and a 5,000-digit number reaches the int-string limit."""

from __future__ import annotations

import re
from typing import Any

import click

from tmphys.text import MAX_DIGITS, quote

_INTEGER = re.compile(rf"[-+]?[0-9]{{1,{MAX_DIGITS}}}")
#: A decimal number as tmphys reads one: digits 0-9 with a point and an exponent; also inf and nan, which the
#: options that take a float refuse by name (``--time-limit nan``: "want a number of seconds above 0").
_DECIMAL = re.compile(r"[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,4})?|inf|infinity|nan)",
                      re.IGNORECASE)


class AsciiIntRange(click.IntRange):
    """``click.IntRange`` that reads only ASCII digits (an optional sign, at most ``MAX_DIGITS`` digits)."""

    def _describe_range(self) -> str:
        """The range as help shows it: nothing for a range without bounds (click would write ``x<=None``)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not _INTEGER.fullmatch(value.strip()):
            self.fail(f"{quote(value)} is not a whole number in digits 0-9", param, ctx)
        return super().convert(value.strip() if isinstance(value, str) else value, param, ctx)


class AsciiFloat(click.types.FloatParamType):
    """``click.FLOAT`` that reads only ASCII digits (with a point and an exponent, or inf / nan)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (len(value) > 64 or not _DECIMAL.fullmatch(value.strip())):
            self.fail(f"{quote(value)} is not a number in digits 0-9 (e.g. 0.5 or 2e3)", param, ctx)
        return super().convert(value.strip() if isinstance(value, str) else value, param, ctx)


#: Whole numbers and decimals as every tmphys option reads them.
INTEGER = AsciiIntRange()
DECIMAL = AsciiFloat()


#: A Dask scheduler's address: ``tcp://host:8786`` or ``host:8786`` (a protocol Dask speaks, a host, its port).
_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*://)?(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}")


class SchedulerAddress(click.ParamType):
    """``--scheduler``: refused in one line, before any work, unless it reads as an address (``tcp://host:8786``)."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str) or len(value) > 255 or not _ADDRESS.fullmatch(value.strip()):
            self.fail(f"{quote(str(value))} is not a scheduler address (e.g. tcp://host:8786)", param, ctx)
        return value.strip()


SCHEDULER = SchedulerAddress()
