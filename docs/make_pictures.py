"""Make the README's pictures of the machine with tmphys itself: ``python docs/make_pictures.py``.

Writes, beside this script:

- ``picture-stack-241-on-447.png``: ``tmphys stack 241 --verifier 447 --png …`` (the stack as it lies on the table)
- ``picture-stack-shifted.png``: the same stack with the verification card half a cell off: four marks in the window
- ``picture-prove-241.png``: ``tmphys prove 241 A 4 447 B 9 646 C 11 566 D 14 322 --png …`` (every verifier's stack)
- ``machine-page.png``: a screenshot of ``machine.html`` (the classic layout) in headless Chromium
- ``companion-page.png``: a screenshot of the page of ``tmphys solve --cards 3 7 10 14 --html …`` mid-game
- ``kit-note-sheets.png``, ``kit-player-aid.png``, ``kit-machine-board.png``: the build's previews of the printed kit
- ``kit-booklet.png``: the first page of ``tmphys booklet --mode classic --difficulty easy --count 20 --seed 1``

The screenshots need Chromium (``apt-get install chromium``) and Python ``playwright`` (the test extra).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

DOCS = Path(__file__).resolve().parent
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Colours kept in a screenshot (a palette PNG stays small in the repository).
SCREENSHOT_COLOURS = 96


def tmphys(*args: str) -> None:
    """Run the tmphys command line (this checkout's), failing loudly."""
    subprocess.run([sys.executable, "-m", "tmphys", *args], check=True, stdout=subprocess.DEVNULL)


def small_png(data: bytes, path: Path) -> None:
    """Save a screenshot as a palette PNG: the same look in a fraction of the bytes."""
    image = Image.open(io.BytesIO(data)).convert("RGB").quantize(SCREENSHOT_COLOURS, method=Image.Quantize.MEDIANCUT)
    image.save(path, optimize=True)


def screenshots(work: Path) -> None:
    """The two pages, opened from file:// in headless Chromium, photographed."""
    from playwright.sync_api import sync_playwright

    from tmphys.cards.layout import load_layout
    from tmphys.render.machine_page import machine_html

    machine = work / "machine.html"
    machine.write_bytes(machine_html(load_layout("classic")))
    companion = work / "companion.html"
    tmphys("solve", "--cards", "3", "7", "10", "14", "--steps", "200000", "--html", str(companion))
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1020, "height": 860})
            page.goto(machine.as_uri() + "#code=241&card=447&shift-blue=0.9,0.3,1")
            page.wait_for_function("[...document.querySelectorAll('#table img')].every(i => i.complete)")
            small_png(page.screenshot(), DOCS / "machine-page.png")
            page = browser.new_page(viewport={"width": 900, "height": 760})
            page.goto(companion.as_uri() + "#answers=C:pass")
            page.get_by_role("button", name="Show the best next move").click()
            small_png(page.screenshot(), DOCS / "companion-page.png")
        finally:
            browser.close()


def kit(work: Path) -> None:
    """The printed kit as the build previews it, and the booklet's first page, as small palette PNGs."""
    import pypdfium2 as pdfium

    tmphys("build", "--out", str(work / "set"))
    for preview, name in (("note-sheets", "kit-note-sheets"), ("player-aid", "kit-player-aid"),
                          ("machine-board", "kit-machine-board")):
        small_png((work / "set" / "previews" / f"{preview}.png").read_bytes(), DOCS / f"{name}.png")
    tmphys("booklet", "--mode", "classic", "--difficulty", "easy", "--count", "20", "--seed", "1",
           "--out", str(work / "booklet.pdf"))
    page = pdfium.PdfDocument(str(work / "booklet.pdf"))[0].render(scale=60 / 72).to_pil()
    buffer = io.BytesIO()
    page.save(buffer, format="PNG")
    small_png(buffer.getvalue(), DOCS / "kit-booklet.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        tmphys("stack", "241", "--verifier", "447", "--png", str(DOCS / "picture-stack-241-on-447.png"))
        subprocess.run([sys.executable, "-m", "tmphys", "stack", "241", "--verifier", "447",
                        "--shift", "card=3.2,3.2", "--png", str(DOCS / "picture-stack-shifted.png")],
                       check=False, stdout=subprocess.DEVNULL)  # exit status 1: the shifted stack is unreadable
        tmphys("prove", "241", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322",
               "--png", str(work / "prove.png"))
        with Image.open(work / "prove.png") as image:  # half size: four stacks side by side read well at that
            image.convert("RGB").resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS).quantize(
                SCREENSHOT_COLOURS, method=Image.Quantize.MEDIANCUT).save(DOCS / "picture-prove-241.png", optimize=True)
        screenshots(work)
        kit(work)
    for name in ("picture-stack-241-on-447.png", "picture-stack-shifted.png", "picture-prove-241.png",
                 "machine-page.png", "companion-page.png", "kit-note-sheets.png", "kit-player-aid.png",
                 "kit-machine-board.png", "kit-booklet.png"):
        print(f"wrote docs/{name} ({(DOCS / name).stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
