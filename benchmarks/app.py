"""The table app in headless Chromium: its weight, how soon it is interactive, and the most memory a search takes
of a phone's tab.

    python benchmarks/app.py                      # weight and time to interactive (7 cold loads at 360 x 740)
    python benchmarks/app.py --memory             # and the worst book problems' searches in the page

Interactive means the page has read its data, compiled the search core and drawn the game in its address
(``body[data-ready]``, stamped with performance.now(): milliseconds from the navigation's start). The memory is the
search worker's WebAssembly memory once its search has stopped (it only grows, so it is the peak); the module caps
it at 512 MiB.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The book's problems with the most hidden assignments (Nightmare, six verifiers), and the one whose native search
#: takes the most memory.
WORST = ["#I63 NGD I", "#I63 HNW F"]


def page_file(folder: Path) -> Path:
    from tmphys.cards.layout import load_layout
    from tmphys.web.table_app import table_html

    path = folder / "table.html"
    path.write_bytes(table_html(load_layout("classic")))
    return path


def page_memory(browser, path: Path, ids: list[str]) -> list[tuple[str, float, int, str]]:
    """Each problem's best move searched in the page (its first look, 15 s, then its longer one, 120 s): the search
    worker's WebAssembly memory at the end (it only grows: the peak), with the seconds and what the page said."""
    out = []
    for ident in ids:
        page = browser.new_page(viewport={"width": 360, "height": 740})
        page.goto(path.as_uri() + "#problem=" + ident.replace("#", "%23").replace(" ", "%20") + "&ask=best")
        page.wait_for_selector("body[data-ready=true]")
        start = time.monotonic()
        done = "() => document.getElementById('best-move').dataset.exact !== undefined"
        page.wait_for_function(done, timeout=600000, polling=500)
        if page.is_visible("#longer"):
            page.click("#longer")
            page.wait_for_function(done, timeout=600000, polling=500)
        memory = page.evaluate("() => tmphysApp.workerMemory()") or 0
        out.append((ident, time.monotonic() - start, memory, page.text_content("#best-move") or ""))
        page.close()
    return out


def launch(p):
    """Debian's Chromium, headless, off the network."""
    return p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=7, help="cold loads timed (default 7)")
    ap.add_argument("--memory", action="store_true",
                    help="also search the worst problems in the page (the page's first look, 15 s, then its longer "
                         "one, 120 s) and report the memory taken")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"{time.strftime('%Y-%m-%d')}, {os.uname().machine}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        path = page_file(Path(folder))
        data = path.read_bytes()
        print(f"table.html: {len(data) / 1024:.0f} kB ({len(gzip.compress(data)) / 1024:.0f} kB gzipped)")
        with sync_playwright() as p:
            browser = launch(p)
            for fragment in ("", "#problem=%23C63%20MO8%202"):
                ready = []
                for _ in range(args.loads):
                    context = browser.new_context(viewport={"width": 360, "height": 740})
                    page = context.new_page()
                    page.goto(path.as_uri() + fragment)
                    page.wait_for_selector("body[data-ready=true]", timeout=60000)
                    ready.append(int(page.get_attribute("body", "data-ready-at")))
                    context.close()
                print(f"interactive{' with ' + fragment if fragment else ''}: median {statistics.median(ready)} ms "
                      f"(min {min(ready)}, max {max(ready)}, {args.loads} cold loads)")
            for ident, seconds, memory, said in page_memory(browser, path, WORST if args.memory else []):
                print(f"{ident}: after {seconds:.0f} s of search, the worker's memory {memory / 2**20:.0f} MiB; {said}")
            browser.close()


if __name__ == "__main__":
    main()
