"""The table app in headless Chromium: its weight, how soon it is interactive, and the most memory a search takes
of a phone's tab.

    python benchmarks/app.py                      # weight and time to interactive (cold loads at 360 x 740)
    python benchmarks/app.py --throttle 4 --against c5a3fe8   # at 4x CPU throttling, beside the page of a commit
    python benchmarks/app.py --memory             # and the worst book problems' searches in the page

The page stamps its body with performance.now() (milliseconds from the navigation's start) when its first screen
is usable (``data-usable-at``: its words read and drawn, a problem can be typed; the search core may still be
compiling) and when it is ready (``data-ready-at``: the search core compiled, the book read, a link's game drawn).
The memory is the search worker's WebAssembly memory once its search has stopped (it only grows, so it is the
peak); the module caps it at 512 MiB. ``--throttle N`` slows the page's CPU N times (Chromium's DevTools
emulation, as a slow phone); ``--against REV`` builds the page of that commit of this repository too (``git
archive``) and times both in turns, load by load, so the machine's load falls alike on both.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
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


def page_of_commit(folder: Path, rev: str) -> Path:
    """The table app as the commit ``rev`` of this repository built it (its tree unpacked with ``git archive``)."""
    tree = folder / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    path = folder / f"table-{rev}.html"
    code = ("import sys; from pathlib import Path; from tmphys.cards.layout import load_layout; "
            "from tmphys.web.table_app import table_html; "
            "Path(sys.argv[1]).write_bytes(table_html(load_layout('classic')))")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, cwd=tree,
                   env={**os.environ, "PYTHONPATH": str(tree)})
    return path


def cold_load(browser, path: Path, fragment: str, throttle: float) -> tuple[int, int]:
    """One cold load at 360 x 740 (a new context: nothing cached): the page's own stamps, in ms from the navigation's
    start: its first screen usable (``data-usable-at``; a page without it: when ready), and ready (the search core
    compiled, the book read, a link's game drawn: ``data-ready-at``)."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    if throttle > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=true]", timeout=120000)
    ready = int(page.get_attribute("body", "data-ready-at"))
    usable = int(page.get_attribute("body", "data-usable-at") or ready)
    context.close()
    return usable, ready


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
    ap.add_argument("--loads", type=int, default=5, help="cold loads timed (default 5)")
    ap.add_argument("--throttle", type=float, default=1.0, help="CPU slowed this many times (default 1: none)")
    ap.add_argument("--against", metavar="REV", help="also time the page of this commit, load by load")
    ap.add_argument("--memory", action="store_true",
                    help="also search the worst problems in the page (the page's first look, 15 s, then its longer "
                         "one, 120 s) and report the memory taken")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.uname().machine}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}, CPU throttled {args.throttle:g}x")
    with tempfile.TemporaryDirectory() as folder:
        pages = {"this tree": page_file(Path(folder))}
        if args.against:
            pages[args.against] = page_of_commit(Path(folder), args.against)
        for name, path in pages.items():
            data = path.read_bytes()
            print(f"{name}: table.html {len(data) / 1000:.0f} kB ({len(gzip.compress(data)) / 1000:.0f} kB gzipped)")
        with sync_playwright() as p:
            browser = launch(p)
            for fragment in ("", "#problem=%23C63%20MO8%202"):
                times: dict[str, list[tuple[int, int]]] = {name: [] for name in pages}
                for _ in range(args.loads):
                    for name, path in pages.items():
                        times[name].append(cold_load(browser, path, fragment, args.throttle))
                at = f" at {fragment}" if fragment else ""
                for name, both in times.items():
                    for k, what in enumerate(("usable", "ready")):
                        ms = [t[k] for t in both]
                        print(f"{name}: {what}{at}: median {statistics.median(ms):.0f} ms "
                              f"(min {min(ms)}, max {max(ms)}, {args.loads} cold loads)")
                if args.against:
                    mine, theirs = (statistics.median(t[0] for t in times[n]) for n in ("this tree", args.against))
                    print(f"usable{at}, this tree / {args.against}: {mine / theirs:.0%}")
            path = pages["this tree"]
            for ident, seconds, memory, said in page_memory(browser, path, WORST if args.memory else []):
                print(f"{ident}: after {seconds:.0f} s of search, the worker's memory {memory / 2**20:.0f} MiB; {said}")
            browser.close()


if __name__ == "__main__":
    main()
