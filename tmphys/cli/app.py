"""``tmphys app`` and ``tmphys serve``: the table app as a static site that installs on a phone, and that site served
on the local network with its address as a QR code, so the phones at the table open it in seconds.

>>> tmphys app --out table-app/          # index.html, manifest, service worker, icons   # doctest: +SKIP
>>> tmphys serve --port 8000             # http://192.168.1.20:8000/ and its QR code      # doctest: +SKIP
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
from pathlib import Path

import click

from tmphys.cli.cards import get_layout, path_problem
from tmphys.cli.language import lang_option, with_language
from tmphys.cli.numbers import AsciiIntRange
from tmphys.files import check_writable
from tmphys.print.build import BuildError, write_tree
from tmphys.text import path_text, quote
from tmphys.web.table_app import site_files

#: Where ``tmphys app`` writes by default.
DEFAULT_OUT = Path("output") / "app"
#: What each of the site's files is served as.
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".webmanifest": "application/manifest+json",
                 ".js": "text/javascript; charset=utf-8", ".png": "image/png", ".json": "application/json"}


def with_manifest(files: dict[str, bytes], layout_name: str) -> dict[str, bytes]:
    """The site's files and the build's manifest.json that lists them (so a later ``tmphys app`` may replace the
    folder, and nothing else's)."""
    entries = [{"path": name, "kind": "app", "bytes": len(data)} for name, data in sorted(files.items())]
    manifest = {"layout": layout_name, "paper": "none", "files": entries}
    return {**files, "manifest.json": (json.dumps(manifest, indent=2) + "\n").encode()}


@click.command(help="Write the table app as a static site (index.html, a web manifest, a service worker, icons): "
                    "served over https or from localhost, a phone installs it and plays offline. For one page to "
                    "double-click, tmphys build writes table.html.")
@click.option("--out", "out_text", default=str(DEFAULT_OUT), show_default=True, metavar="DIR",
              help="Folder to write (replaced whole if it holds an earlier app).")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the app's machine stacks on.")
@lang_option("the cards' pictures, and the app's when the browser asks for none of its languages (every "
             "language is in the app: it follows the browser's, and its picker)")
def app(out_text: str, layout: str, lang: str = "en") -> None:
    """Write the static site of the table app."""
    if not out_text.strip():
        raise click.UsageError("--out is empty: give the folder to write")
    out = Path(out_text)
    if out_text == str(DEFAULT_OUT):
        out = with_language(out, lang)
    if out.is_file():  # a file where the folder goes: say so, not that it is no regular file
        raise click.UsageError(f"--out {path_text(out)} is a file, not a folder: give the folder to write the app to")
    try:
        check_writable(out, directory=True)
    except OSError as e:
        raise click.UsageError(path_problem("--out", out_text, e)) from None
    the_layout = get_layout(layout)
    files = with_manifest(site_files(the_layout, lang), the_layout.name)
    try:
        write_tree(files, out)
    except BuildError as e:
        raise click.UsageError(str(e)) from None
    click.echo(f"Wrote the table app ({len(files)} files, {sum(map(len, files.values())) // 1024} kB) to "
               f"{path_text(out)}/: serve it over https, or run tmphys serve")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: a UDP socket only picks its route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def handler_for(files: dict[str, bytes]) -> type[http.server.BaseHTTPRequestHandler]:
    """A request handler serving these files from memory (GET and HEAD; nothing else, nothing outside them)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        server_version = "tmphys"
        sys_version = ""

        def _file(self) -> tuple[str, bytes] | None:
            path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
            data = files.get(path)
            return None if data is None else (path, data)

        def _send(self, body: bool) -> None:
            found = self._file()
            if found is None:
                self.send_error(404, "not part of the table app")
                return
            path, data = found
            self.send_response(200)
            self.send_header("Content-Type", CONTENT_TYPES.get(Path(path).suffix, "application/octet-stream"))
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (the library's name)
            self._send(True)

        def do_HEAD(self) -> None:  # noqa: N802
            self._send(False)

        def log_message(self, format: str, *args: object) -> None:  # quiet: the terminal shows the address only
            pass

    return Handler


def qr_text(url: str) -> str:
    """The address as a QR code drawn with the terminal's block characters (segno)."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


@click.command(help="Serve the table app on the local network and print its address with a QR code: the phones "
                    "at the table open it and play offline from then on. Ctrl-C stops the server.")
@click.option("--port", type=AsciiIntRange(1, 65535), default=8000, show_default=True, help="TCP port to listen on.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (127.0.0.1: this machine only).")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the app's machine stacks on.")
def serve(port: int, host: str, layout: str) -> None:
    """Serve the static site from memory until Ctrl-C."""
    the_layout = get_layout(layout)
    click.echo("Preparing the table app…")
    files = site_files(the_layout)
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler_for(files))
    except OSError as e:
        raise click.UsageError(f"cannot listen on {quote(host)}:{port}: {e.strerror or e}") from None
    shown = lan_address() if host in ("0.0.0.0", "") else host
    url = f"http://{shown}:{server.server_address[1]}/"
    click.echo(f"The table app is at {url}  (this machine: http://localhost:{server.server_address[1]}/)")
    click.echo(qr_text(url), nl=False)
    click.echo("Phones on the same network: scan the code. Installing the app for offline play needs https or "
               "localhost; over plain http it plays while this runs. Ctrl-C stops.")
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="tmphys-serve")
    thread.start()
    try:
        thread.join()
    except KeyboardInterrupt:  # Ctrl-C is how a server stops: not an error
        click.echo("Stopped.")
    finally:
        server.shutdown()
        server.server_close()
