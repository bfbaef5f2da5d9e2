"""Make the README's pictures of the machine with tmphys itself: ``python docs/make_pictures.py``.

Writes, beside this script:

- ``picture-stack-241-on-447.png``: ``tmphys stack 241 --verifier 447 --png …`` (the stack as it lies on the table)
- ``picture-stack-shifted.png``: the same stack with the verification card half a cell off: four marks in the window
- ``picture-prove-241.png``: ``tmphys prove 241 A 4 447 B 9 646 C 11 566 D 14 322 --png …`` (every verifier's stack)
- ``machine-page.png``: a screenshot of ``machine.html`` (the classic layout) in headless Chromium
- ``app-phone.png``: the table app at phone size, three screens of one game (#C63 MO8 2): the note sheet with the
  machine's answers, Check my notes and Why?, the best move and the machine's stack
- ``kit-note-sheets.png``, ``kit-player-aid.png``, ``kit-machine-board.png``: the build's previews of the printed kit
- ``kit-booklet.png``: the first page of ``tmphys booklet --mode classic --difficulty easy --count 20 --seed 1``
- ``kit-player-aid-ja.png``: the player aid of ``tmphys build --lang ja`` (a kit in another language and script)

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
    """The machine page, opened from file:// in headless Chromium, photographed."""
    from playwright.sync_api import sync_playwright

    from tmphys.cards.layout import load_layout
    from tmphys.web.machine_page import machine_html

    machine = work / "machine.html"
    machine.write_bytes(machine_html(load_layout("classic")))
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1020, "height": 860})
            page.goto(machine.as_uri() + "#code=241&card=447&shift-blue=0.9,0.3,1")
            page.wait_for_function("[...document.querySelectorAll('#table img')].every(i => i.complete)")
            small_png(page.screenshot(), DOCS / "machine-page.png")
        finally:
            browser.close()


def app_pictures(work: Path) -> None:
    """Three phone screens of the table app, side by side: a game under way, its notes checked, the machine."""
    from playwright.sync_api import sync_playwright

    from tmphys.cards.layout import load_layout
    from tmphys.web.table_app import table_html

    page_path = work / "table.html"
    page_path.write_bytes(table_html(load_layout("classic")))
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=1)
            page.goto(page_path.as_uri() + "#problem=%23C63%20MO8%202&moves=211:A:pass,C:pass,D:fail;132:B:pass")
            page.wait_for_selector("body[data-ready=true]")
            page.click("#sheet button[data-ask=E]")
            page.click("#best")
            page.wait_for_selector("#best-move[data-exact]")
            page.click("#message")
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(page.screenshot())
            for mark in ("b1", "y2"):
                page.click(f"#digits button[data-mark={mark}]")
            for mark in ("C31.3", "A17.1"):
                page.click(f"#verifiers button[data-mark='{mark}']")
            page.click("#check")
            page.locator("#verifiers [data-verifier=C]").scroll_into_view_if_needed()
            page.click("#verifiers button[data-why='C31.2']")
            shots.append(page.screenshot())
            page.click("#message")
            page.click("#machine summary")
            page.select_option("#machine-verifier", "1")
            page.wait_for_function("[...document.querySelectorAll('#machine-picture img')].every(i => i.complete)")
            page.evaluate("document.getElementById('machine').scrollIntoView()")
            shots.append(page.screenshot())
        finally:
            browser.close()
    images = [Image.open(io.BytesIO(s)).convert("RGB") for s in shots]
    gap = 16
    sheet = Image.new("RGB", (sum(i.width for i in images) + gap * (len(images) - 1), images[0].height), "white")
    for k, image in enumerate(images):
        sheet.paste(image, (k * (image.width + gap), 0))
    buffer = io.BytesIO()
    sheet.save(buffer, format="PNG")
    small_png(buffer.getvalue(), DOCS / "app-phone.png")


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


def kit_in_language(work: Path, lang: str = "ja") -> None:
    """The player aid of a kit built in another language, as the build previews it."""
    tmphys("build", "--lang", lang, "--out", str(work / f"set-{lang}"))
    small_png((work / f"set-{lang}" / "previews" / "player-aid.png").read_bytes(), DOCS / f"kit-player-aid-{lang}.png")


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
        app_pictures(work)
        kit(work)
        kit_in_language(work)
    for name in ("picture-stack-241-on-447.png", "picture-stack-shifted.png", "picture-prove-241.png",
                 "machine-page.png", "app-phone.png", "kit-note-sheets.png", "kit-player-aid.png",
                 "kit-machine-board.png", "kit-booklet.png", "kit-player-aid-ja.png"):
        print(f"wrote docs/{name} ({(DOCS / name).stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
