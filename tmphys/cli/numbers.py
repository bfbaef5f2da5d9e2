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
    """``click.IntRange`` that reads only ASCII digits (an optional sign, at most ``MAX_DIGITS`` digits); its help
    names the range only where it has one (click's would read ``x<=None``)."""

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()

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


#: The protocol tmphys reaches a Dask scheduler by: plain TCP (``tcp://host:8786``, or ``host:8786``), which Dask
#: speaks with no set-up on either side. The others Dask knows need what tmphys does not give it (``_NOT_HERE``).
SCHEDULER_PROTOCOL = "tcp"
#: Why each other protocol Dask knows is refused, in words.
_NOT_HERE = {
    "tls": "needs certificates (a Dask security configuration) that tmphys does not pass",
    "wss": "needs certificates (a Dask security configuration) that tmphys does not pass",
    "ws": "needs a scheduler started for websockets and its own set-up",
    "ucx": "needs the UCX library and a scheduler started for it",
    "inproc": "is an address inside one Python process, which no other process can reach",
}
#: ``[PROTOCOL://]HOST:PORT``: a host name, an IPv4 address or an IPv6 address in brackets, and a port.
_ADDRESS = re.compile(r"(?:(?P<protocol>[^/]*)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")
#: The longest host name (RFC 1035).
MAX_HOST = 253


def scheduler_problem(text: str) -> str | None:
    """Why ``text`` is not an address tmphys can reach a Dask scheduler at (one line), or None when it is one:
    refused before connecting, so a protocol it cannot use or a port past 65535 answers at once, not after a wait."""
    example = "e.g. tcp://host:8786"
    m = _ADDRESS.fullmatch(text)
    protocol = text.split("://", 1)[0].lower() if "://" in text else SCHEDULER_PROTOCOL
    if protocol != SCHEDULER_PROTOCOL:
        why = _NOT_HERE.get(protocol, "is not a protocol Dask speaks")
        return (f"{quote(text)}: {quote(protocol + '://', marks=False)} {why}; tmphys reaches a Dask scheduler over "
                f"{SCHEDULER_PROTOCOL}:// only ({example})")
    if m is None or len(m["host"]) > MAX_HOST:
        return f"{quote(text)} is not a scheduler address ({example})"
    if not 1 <= int(m["port"]) <= 65535:
        return f"{quote(text)} is not a scheduler address: its port {int(m['port'])} is not 1..65535 ({example})"
    return None


class SchedulerAddress(click.ParamType):
    """``--scheduler``: a Dask scheduler's address, ``tcp://host:8786`` (or ``host:8786``), given back as
    ``tcp://host:8786``; anything else is refused in one line before any work (``scheduler_problem``)."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        text = value.strip() if isinstance(value, str) else str(value)
        problem = scheduler_problem(text)
        if problem is not None:
            self.fail(problem, param, ctx)
        m = _ADDRESS.fullmatch(text)
        assert m is not None
        return f"{SCHEDULER_PROTOCOL}://{m['host']}:{int(m['port'])}"


SCHEDULER = SchedulerAddress()
