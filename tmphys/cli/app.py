"""``tmphys app`` and ``tmphys serve``: the table app as a static site that installs on a phone, and that site served
on the local network with its address as a QR code, so the phones at the table open it in seconds.

>>> tmphys app --out table-app/          # index.html, manifest, service worker, icons   # doctest: +SKIP
>>> tmphys serve --port 8000             # http://192.168.1.20:8000/ and its QR code      # doctest: +SKIP
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import click

from tmphys.cli.cards import get_layout, path_problem
from tmphys.cli.criteria import criteria_option
from tmphys.cli.language import lang_option, with_language
from tmphys.cli.numbers import DECIMAL, AsciiIntRange
from tmphys.files import check_writable
from tmphys.game.criteria import Library
from tmphys.print.folder import BuildError, write_tree
from tmphys.text import path_text, quote
from tmphys.web import server
from tmphys.web.table_app import site_files

#: Where ``tmphys app`` writes by default.
DEFAULT_OUT = Path("output") / "app"


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
@criteria_option
def app(out_text: str, layout: str, lang: str = "en", criteria: Library | None = None) -> None:
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
    files = with_manifest(site_files(the_layout, lang, criteria), the_layout.name)
    try:
        write_tree(files, out)
    except BuildError as e:
        raise click.UsageError(str(e)) from None
    click.echo(f"Wrote the table app ({len(files)} files, {sum(map(len, files.values())) // 1024} kB) to "
               f"{path_text(out)}/: serve it over https, or run tmphys serve")


@click.command(help="Serve the table app on the local network and print every address a phone can open it at, "
                    "the first as a QR code: the phones at the table open it and play offline from then on. It "
                    "serves the app's own files, read-only, to anyone on this network; --host 127.0.0.1 keeps it "
                    "to this computer. Ctrl-C stops it (exit 130).")
@click.option("--port", type=AsciiIntRange(1, 65535), default=8000, show_default=True, help="TCP port to listen on.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this computer; 127.0.0.1: this computer only).")
@click.option("--layout", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout the app's machine stacks on.")
@click.option("--verbose", is_flag=True, help="Also print a line on stderr for each request.")
@click.option("--idle-timeout", type=DECIMAL, default=server.IDLE_TIMEOUT, hidden=True)
@criteria_option
def serve(port: int, host: str, layout: str, verbose: bool = False,
          idle_timeout: float = server.IDLE_TIMEOUT, criteria: Library | None = None) -> None:
    """Serve the static site from memory until Ctrl-C, SIGTERM or SIGHUP; exit with 128 + the signal's number."""
    the_layout = get_layout(layout)
    try:  # first, so that a port taken is said at once
        sock = server.listen(host, port)
    except (OSError, OverflowError, UnicodeError) as e:
        raise click.UsageError(f"cannot listen on {quote(host)}:{port}: "
                               f"{getattr(e, 'strerror', None) or e}") from None
    port = sock.getsockname()[1]
    click.echo("Preparing the table app…")
    try:
        files = site_files(the_layout, criteria=criteria)
    except BaseException:
        sock.close()
        raise

    def ready(stop: object) -> None:
        click.echo(server.announcement(host, port, server.addresses(host)), nl=False)
        sys.stdout.flush()
        click.echo(f"tmphys: serving on {quote(host, marks=False)}:{port}", err=True)

    with sock:
        signum = server.serve(sock, files, verbose, idle_timeout, ready)
    click.echo(f"tmphys: stopped ({signal.Signals(signum).name})", err=True)
    sys.exit(128 + signum)
