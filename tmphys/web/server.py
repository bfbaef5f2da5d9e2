"""The table app served on the local network (``tmphys serve``): the site's files from memory, read-only, on one
asyncio event loop (aiohttp), so that a thousand idle or half-sent connections cost a few kilobytes each, not a
thread each.

What a request can reach is the site's own files, by their exact names, and nothing else: no directory listing, no
path through ``..``, ``%2e%2e``, ``%00``, backslashes or absolute paths reaches the disk, since no file is read
from it. GET and HEAD only (405 otherwise). A request line longer than ``MAX_REQUEST_LINE`` gets 414, a header
line longer than ``MAX_HEADER_LINE`` or more than ``MAX_HEADERS`` headers 431. A connection that has not sent a
whole request within ``IDLE_TIMEOUT`` seconds (nothing, or half a request line or of its headers), that stays
idle that long between requests, or that reads none of an answer for that long, is closed. Every response carries
the page's own content security policy (the service worker's lets it fetch the app's files: ``worker_policy``) and
``X-Content-Type-Options: nosniff``. A client that goes away or resets
its connection is not an error, and prints nothing; past the open-file limit, new connections wait in the
listening queue until descriptors are free again.
"""

from __future__ import annotations

import asyncio
import html
import ipaddress
import logging
import re
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

#: Seconds a connection may take to send a whole request line and its headers, and may stay idle between requests.
IDLE_TIMEOUT = 10.0
#: The longest request target (the path and its query), in bytes: longer gets 414 URI Too Long.
MAX_REQUEST_LINE = 4096
#: The longest header line, in bytes, and the most headers a request may have: past either, 431.
MAX_HEADER_LINE = 8190
MAX_HEADERS = 64
#: An answer is written this many bytes at a time, each within ``IDLE_TIMEOUT``.
CHUNK = 64 * 1024
#: Connections the kernel holds for the server while it is busy or out of descriptors.
BACKLOG = 1024
#: What each of the site's files is served as.
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".webmanifest": "application/manifest+json",
                 ".js": "text/javascript; charset=utf-8", ".png": "image/png", ".json": "application/json"}
#: The methods served; any other gets 405.
METHODS = ("GET", "HEAD")
_POLICY = re.compile(rb'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', re.IGNORECASE)


def page_policy(page: bytes) -> str:
    """The content security policy a page declares in its ``<meta http-equiv>`` (the table app's: its scripts by
    hash, no network), sent as a header with every file; ``default-src 'none'`` for a page that declares none."""
    found = _POLICY.search(page)
    return html.unescape(found.group(1).decode("ascii", "replace")) if found else "default-src 'none'"


def worker_policy(policy: str) -> str:
    """The policy sent with the service worker's script: the page's, but for the worker's own fetches of the app's
    files from this server (to keep them for offline play), which the page's ``connect-src 'none'`` would block."""
    return policy.replace("connect-src 'none'", "connect-src 'self'")


def file_name(raw_path: str, files: dict[str, bytes]) -> str | None:
    """The site's file a request target names (``/`` is ``index.html``), or None: only a file's exact name, once
    percent-decoded, names it, so ``..``, ``%2e%2e``, ``%00``, backslashes and absolute paths name nothing."""
    path = raw_path.split("?", 1)[0].split("#", 1)[0]
    try:
        path = unquote(path, errors="strict")
    except UnicodeDecodeError:
        return None
    if not path.startswith("/"):
        return None
    name = path[1:] or "index.html"
    return name if name in files else None


def addresses(host: str) -> list[str]:
    """The addresses a phone can open the server at: for ``0.0.0.0`` (every interface) each non-loopback IPv4
    address of this machine's interfaces (psutil), else ``host`` itself; ``127.0.0.1`` when there is none."""
    if host not in ("0.0.0.0", ""):
        return [host]
    import psutil

    found: list[str] = []
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family != socket.AF_INET:
                continue
            try:
                ip = ipaddress.IPv4Address(entry.address)
            except ValueError:
                continue
            if not ip.is_loopback and entry.address not in found:
                found.append(entry.address)
    return found or ["127.0.0.1"]


def url(address: str, port: int) -> str:
    """``http://ADDRESS:PORT/`` (an IPv6 address in brackets)."""
    return f"http://[{address}]:{port}/" if ":" in address else f"http://{address}:{port}/"


def qr_text(text: str) -> str:
    """``text`` as a QR code drawn with the terminal's block characters (segno)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def announcement(host: str, port: int, shown: list[str]) -> str:
    """What ``tmphys serve`` prints once it listens on ``host``: every address in ``shown`` (``addresses``), the
    first as a QR code, and who can open the page."""
    local = ipaddress.ip_address(shown[0]).is_loopback if _is_ip(shown[0]) else shown[0] == "localhost"
    lines = [f"The table app is at {url(shown[0], port)}" + ("  (this computer only)" if local else "")]
    lines += [f"  and at {url(other, port)}" for other in shown[1:]]
    lines.append(qr_text(url(shown[0], port)).rstrip("\n"))
    if local:
        lines.append("Only this computer can open the page. Ctrl-C stops.")
    else:
        lines.append("Anyone on this network can open the page (the app's files, read-only); --host 127.0.0.1 keeps "
                     "it to this computer. Ctrl-C stops.")
    lines.append("Installing the app for offline play needs https or localhost; over plain http it plays while this "
                 "runs.")
    return "\n".join(lines) + "\n"


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def listen(host: str, port: int) -> socket.socket:
    """The listening socket on ``host``:``port`` (OSError when it cannot be had: the port taken, no such
    address), made before anything is announced."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=BACKLOG, reuse_port=False)


def site_app(files: dict[str, bytes], policy: str, seen: list[str] | None = None,
             timeout: float = IDLE_TIMEOUT) -> Any:
    """The aiohttp application that answers every request from ``files`` (see the module's docstring); each
    request's target added to ``seen`` when given; a reader that takes none of an answer's ``CHUNK`` bytes within
    ``timeout`` seconds is dropped."""
    from aiohttp import web

    from tmphys.web.table_app import SERVICE_WORKER

    headers = {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff"}
    worker = {**headers, "Content-Security-Policy": worker_policy(policy)}

    async def answer(request: web.BaseRequest) -> web.StreamResponse:
        came = getattr(request.protocol, "request_came", None)
        if came is not None:
            came()
        if seen is not None:
            seen.append(request.raw_path)
        if request.method not in METHODS:
            return web.Response(status=405, text="405: read-only (GET and HEAD)\n",
                                headers={"Allow": ", ".join(METHODS)})
        name = file_name(request.raw_path, files)
        if name is None:
            return web.Response(status=404, text="404: not part of the table app\n")
        content_type = CONTENT_TYPES.get(PurePosixPath(name).suffix, "application/octet-stream")
        data = files[name]
        response = web.StreamResponse(headers={"Content-Type": content_type, "Cache-Control": "no-cache"})
        response.content_length = len(data)
        await response.prepare(request)
        try:  # a piece at a time, each within the time-out: a reader that stalls holds neither memory nor its place
            if request.method == "GET":
                for start in range(0, len(data), CHUNK):
                    await asyncio.wait_for(response.write(data[start:start + CHUNK]), timeout)
            await response.write_eof()
        except TimeoutError:
            if request.transport is not None:
                request.transport.abort()
        return response

    async def stamped(request: web.BaseRequest, response: web.StreamResponse) -> None:
        response.headers.update(worker if file_name(request.raw_path, files) == SERVICE_WORKER else headers)
        response.headers["Server"] = "tmphys"

    app = web.Application(handler_args={"max_line_size": MAX_REQUEST_LINE, "max_field_size": MAX_HEADER_LINE,
                                        "max_headers": MAX_HEADERS})
    app.router.add_route("*", "/{path:.*}", answer)
    app.on_response_prepare.append(stamped)
    return app


def _handler_class() -> type:
    """aiohttp's connection handler, its parse errors answered 414 and 431 where the request line or the headers
    are too long (aiohttp's own answer for both is 400)."""
    from aiohttp.http_exceptions import BadHttpMessage, LineTooLong
    from aiohttp.web_protocol import RequestHandler

    class Handler(RequestHandler):
        __slots__ = ("_first",)

        def connection_made(self, transport: Any) -> None:
            # a connection that sends no whole request within the time-out is closed (aiohttp's keep-alive timer
            # covers one idle between requests, and only recent versions one that never sends any)
            self._first = asyncio.get_running_loop().call_later(self.keepalive_timeout, transport.close)
            super().connection_made(transport)

        def connection_lost(self, exc: BaseException | None) -> None:
            self.request_came()
            super().connection_lost(exc)

        def request_came(self) -> None:
            """A whole request has come: the first request's time-out is over."""
            first = getattr(self, "_first", None)
            if first is not None:
                first.cancel()
                self._first = None

        def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                         message: str | None = None) -> Any:
            if isinstance(exc, LineTooLong):
                status = 414 if exc.args[1:2] == (MAX_REQUEST_LINE,) else 431
            elif isinstance(exc, BadHttpMessage) and "Too many headers" in str(exc):
                status = 431
            return super().handle_error(request, status, exc, message)

    return Handler


def _quiet_logs(verbose: bool) -> None:
    """aiohttp's and asyncio's own messages (a client gone, a reset, a full descriptor table) kept off stderr; with
    ``verbose``, one access line a request."""
    for name in ("aiohttp", "asyncio"):
        logger = logging.getLogger(name)
        logger.propagate = False
        logger.handlers[:] = [logging.NullHandler()]
    if verbose:
        access = logging.getLogger("aiohttp.access")
        access.setLevel(logging.INFO)
        stream = logging.StreamHandler(sys.stderr)
        stream.setFormatter(logging.Formatter("%(message)s"))
        access.handlers[:] = [stream]


#: The line an access log writes a request as, with ``--verbose``.
ACCESS_FORMAT = '%a "%r" %s %b'


async def _serve(sock: socket.socket, files: dict[str, bytes], verbose: bool, timeout: float,
                 ready: Callable[[Callable[[], None]], None], seen: list[str] | None) -> int:
    from aiohttp import web

    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda loop, context: None)  # accept() past the descriptor limit: it retries
    stopped: asyncio.Future[int] = loop.create_future()
    def stop(signum: int = 0) -> None:
        if not stopped.done():
            stopped.set_result(signum)

    for signum in _stopping_signals():
        loop.add_signal_handler(signum, stop, signum)
    app = site_app(files, page_policy(files.get("index.html", b"")), seen, timeout)
    kwargs: dict[str, Any] = {"keepalive_timeout": timeout, "max_line_size": MAX_REQUEST_LINE,
                              "max_field_size": MAX_HEADER_LINE, "max_headers": MAX_HEADERS,
                              "access_log": logging.getLogger("aiohttp.access") if verbose else None,
                              "access_log_format": ACCESS_FORMAT}
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5, **kwargs)
    await runner.setup()
    handler = _handler_class()
    server = await loop.create_server(lambda: handler(runner.server, loop=loop, **kwargs), sock=sock,
                                      backlog=BACKLOG)
    try:
        ready(lambda: loop.call_soon_threadsafe(stop))
        return await stopped
    finally:
        server.close()
        await runner.cleanup()


def _stopping_signals() -> list[int]:
    """The signals that stop the server: Ctrl-C, SIGTERM and SIGHUP, except one the shell started it ignoring
    (none outside the main thread, where no handler can be set)."""
    if threading.current_thread() is not threading.main_thread():
        return []
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return [s for s in (getattr(signal, n) for n in names if hasattr(signal, n))
            if signal.getsignal(s) is not signal.SIG_IGN]


def serve(sock: socket.socket, files: dict[str, bytes], verbose: bool = False, timeout: float = IDLE_TIMEOUT,
          ready: Callable[[Callable[[], None]], None] = lambda stop: None, seen: list[str] | None = None) -> int:
    """Serve ``files`` on the listening ``sock`` until Ctrl-C, SIGTERM or SIGHUP (the signal's number), or until
    the function given to ``ready`` is called, from any thread (0). ``ready`` is called once requests are
    answered; ``verbose``: an access line a request on stderr; ``timeout``: the seconds a connection may take to
    send its request, or stay idle (``IDLE_TIMEOUT``); ``seen``: each request's target added to it."""
    _quiet_logs(verbose)
    return asyncio.run(_serve(sock, files, verbose, timeout, ready, seen))
