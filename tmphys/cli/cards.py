"""Commands on the deck model: ``check`` a layout, show one ``stack``, ``place`` codes anew."""

from __future__ import annotations

import math
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import numpy as np

from tmphys.art.params import PAPERS
from tmphys.cards.deck import Deck, stack_for
from tmphys.cards.layout import (
    NAME_RULE,
    Layout,
    LayoutError,
    layout_names,
    load_layout,
    parse_layout,
    portable_name,
    shipped_alike,
    shipped_text,
)
from tmphys.cards.layout_file import has_placement, new_layout_header, with_placement
from tmphys.cards.stack import (
    DEFAULT_PX_PER_MM,
    MAX_SHIFT_MM,
    Placement,
    Raster,
    RasterTooLarge,
    StackView,
    check_raster_size,
    read_stack,
)
from tmphys.cli.criteria import criteria_option
from tmphys.cli.numbers import DECIMAL, AsciiIntRange
from tmphys.files import check_writable, describe, write_atomic
from tmphys.game.codes import Code, CodeError
from tmphys.game.criteria import Library, UnknownIdError, VerificationCard, library, parse_id
from tmphys.text import json_text, path_text, quote

LAYOUT_HELP = "Layout: a shipped name (classic, retail) or the path of a layout .toml file."
LAYERS = ("blue", "yellow", "purple", "card")
#: The clustering ``place`` aims its placements under (largest Moran's I), or the layout's own rule if lower.
PLACE_TARGET = 0.09
#: About how many annealing steps ``place`` makes a second (on one core of a laptop; its estimate, not a promise).
PLACE_STEPS_PER_SECOND = 10_000
#: The largest seed ``place --seed`` takes, and the range a seed drawn for the user comes from.
MAX_PLACE_SEED = 2**32 - 1


def with_progress(work: Callable[[], Any], estimate: float, label: str) -> Any:
    """Run ``work`` and return what it returns; at a terminal, with a progress bar on stderr that fills over the
    ``estimate`` (seconds) and completes when the work is done (the work gives no progress of its own)."""
    if sys.stderr is None or not sys.stderr.isatty():
        return work()
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except BaseException as e:  # handed to the main thread, raised there
            result["error"] = e

    worker = threading.Thread(target=run, daemon=True, name="tmphys-place")
    started = time.monotonic()
    worker.start()
    ticks = 100
    with click.progressbar(length=ticks, label=label, file=sys.stderr, show_eta=True) as bar:
        shown = 0
        while worker.is_alive():
            worker.join(0.25)  # Ctrl-C reaches this thread between waits
            due = min(ticks - 1, int(ticks * (time.monotonic() - started) / max(estimate, 1e-9)))
            if due > shown:
                bar.update(due - shown)
                shown = due
        bar.update(ticks - shown)
    if "error" in result:
        raise result["error"]
    return result["value"]


def output_file(text: str, option: str) -> Path:
    """The path of a file to write, checked before any long work: a one-line usage error if unwritable."""
    if not text.strip():
        raise click.UsageError(f"{option} is empty: give the path of the file to write")
    path = Path(text)
    try:
        check_writable(path)
    except OSError as e:
        raise click.UsageError(path_problem(option, text, e)) from None
    return path


def picture_files(png_text: str | None, svg_text: str | None) -> dict[str, Path]:
    """The pictures asked for (``png``/``svg`` by kind), checked before any work: each writable, and named for what
    it holds (``--png s.jpg`` would be a PNG under a JPEG's name: refused in one line)."""
    out = {}
    for kind, text in (("png", png_text), ("svg", svg_text)):
        if text is None:
            continue
        if text.strip() and Path(text).suffix.lower() != f".{kind}":
            raise click.UsageError(f"--{kind} writes a {kind.upper()} picture: name it .{kind}, not {quote(text)}")
        out[kind] = output_file(text, f"--{kind}")
    return out


def path_problem(option: str, text: str, error: OSError) -> str:
    """One line for an option's path that cannot be written: the option, the path, what is wrong."""
    if error.filename == text:
        return f"{option} {path_text(text)} {error.strerror}"
    return f"{option} {path_text(text)}: {describe(error)}"


def get_layout(value: str) -> Layout:
    """Load a layout for a command, turning any problem into a one-line usage error."""
    try:
        return load_layout(value)
    except LayoutError as e:
        raise click.UsageError(str(e)) from None


@click.command()
@click.option("--layout", "layout_name", default="classic", show_default=True, metavar="NAME|PATH", help=LAYOUT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--resolution", default=5.0, show_default=True, type=DECIMAL,
              help="Raster resolution for the pixel check, pixels per mm (0.5..50).")
@criteria_option
def check(layout_name: str, as_json: bool, resolution: float, criteria: Library | None = None) -> int:
    """Check a layout: every stack, the raster, hole sizes, webs, edges, isolation, tolerance.

    With --criteria, the files' cards too: how many codes each criterion passes, and every rule on their
    verification cards. Exit status 0 when every rule passes, 1 (with each violation listed) when one does not.
    """
    from tmphys.cards.check import check as run_check
    from tmphys.cards.check import mm, mm_tolerated

    if not 0.5 <= resolution <= 50:
        raise click.UsageError(f"--resolution must be 0.5..50 pixels per mm, not {resolution:g}")
    layout = get_layout(layout_name)
    try:
        check_raster_size(layout, resolution)
    except RasterTooLarge as e:
        raise click.UsageError(str(e)) from None
    report = run_check(layout, px_per_mm=resolution, criteria=criteria)
    unfit = _papers_it_misses(layout)
    if as_json:
        data = report.to_json()
        data["layout"], data["layout_source"] = layout.name, layout.source
        if criteria is not None:
            data["criteria_cards"] = criteria_summary(criteria)
        data["prints_on"] = [paper for paper in PAPERS if paper not in unfit]
        click.echo(json_text(data))
        return 0 if report.ok else 1
    m, t = report.measures, report.tolerance
    est = " (sizes are estimates)" if layout.estimated else ""
    clearance = m["alignment_clearance_mm"]
    click.echo(f"layout {layout.label}{est}: {layout.card_width:.2f} × {mm(layout.card_height)}, "
               f"{m['cells']} cells ({m['decoys']} decoys), holes {layout.hole_width:.2f} × "
               f"{mm(layout.hole_height)}")
    click.echo(f"  stacks: {report.stacks_with_one_cell}/{report.stacks_checked} open exactly one cell; as a raster "
               f"at {resolution:g} px/mm, {m['raster_stacks_reading_right']} show their own cell and nothing else")
    click.echo(f"  narrowest web {mm(m['min_web_mm'])}, hole to edge {mm(m['min_edge_mm'])}, hole to alignment "
               f"mark {mm(clearance) if isinstance(clearance, float) else clearance}")
    click.echo(f"  neighbour pairs sharing a digit: {m['diagonal_clashes']} diagonal, "
               f"{m['neighbour_clashes']} counting all 8 neighbours (rule: {layout.rules.isolation})")
    click.echo(f"  most clustered criterion: Moran's I {m['worst_autocorrelation']:.3f} "
               f"({m['worst_autocorrelation_criterion']})")
    click.echo(f"  tolerance: {mm_tolerated(t.mm)} per layer, limited by {t.limited_by} "
               f"(another cell opens at {mm_tolerated(t.spurious)}, own window closes at "
               f"{mm_tolerated(t.closing)}, leaves its mark at {mm_tolerated(t.straying)}); "
               f"rotation ≈ {t.rotation_deg:.2f}°")
    for paper, why in unfit.items():  # cut, it would still work; build cannot print it on that paper
        click.echo(f"  WARNING: build cannot print this layout on {paper}: {why}")
    if criteria is not None:
        for card in criteria_summary(criteria):
            click.echo(f"  criteria card {card['number']} ({quote(card['title'])}, {path_text(card['file'])}):")
            for c in card["criteria"]:
                ids = " ".join(c["verification_cards"]) or "none"
                click.echo(f"    {c['key']}: {quote(c['text'])}: {c['codes']} of 125 codes pass; verification "
                           f"cards {ids}")
    if report.ok:
        click.echo("all rules pass")
        return 0
    for v in report.violations:
        click.echo(f"VIOLATION {v}")
    click.echo(f"{len(report.violations)} violation(s)")
    return 1


def criteria_summary(criteria: Library) -> list[dict[str, Any]]:
    """The files' criteria cards as ``check`` reports them: each criterion's key, words, how many codes pass, and the
    verification cards that carry it (green IDs)."""
    return [{"number": card.number, "title": card.title, "file": card.source,
             "criteria": [{"key": c.key, "text": c.text, "codes": int(c.table.sum()),
                           "verification_cards": [v.label() for v in criteria.verification_cards_for(c)]}
                          for c in card.criteria]}
            for card in criteria.user_cards]


def _papers_it_misses(layout: Layout) -> dict[str, str]:
    """The papers ``build`` cannot print a layout's cards on, each with why (as ``build`` would say it)."""
    from tmphys.print.build import misfit

    return {name: why for name, paper in PAPERS.items() if (why := misfit(layout, paper)) is not None}


def parse_shift(text: str) -> tuple[str, Placement]:
    """Read ``LAYER=DX,DY[,DEG]`` (layer blue, yellow, purple or card; numbers in ASCII digits) into a placement."""
    number = r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
    m = re.fullmatch(rf"\s*([a-z]+)\s*=\s*({number})\s*,\s*({number})\s*(?:,\s*({number})\s*)?", text)
    if not m or m.group(1) not in LAYERS:
        raise click.UsageError(f"bad --shift {quote(text)}: want LAYER=DX,DY[,DEGREES] with LAYER one of "
                               f"{', '.join(LAYERS)} and numbers such as 0.5 or -1.2")
    values = [float(v) for v in m.groups()[1:] if v is not None]
    if not all(math.isfinite(v) for v in values):
        raise click.UsageError(f"bad --shift {quote(text)}: not finite")
    if max(abs(values[0]), abs(values[1])) > MAX_SHIFT_MM:
        raise click.UsageError(f"bad --shift {quote(text)}: more than {MAX_SHIFT_MM:g} mm (a metre takes a layer off "
                               "any card)")
    return m.group(1), Placement(*values)


def picture(layout: Layout, open_cells: tuple[int, ...], marks: dict[int, bool]) -> str:
    """A small text picture of the card: · closed, ✓ or ✗ where a cell shows, ? for a decoy."""
    grid = [[" "] * layout.columns for _ in range(layout.rows)]
    for cell in layout.cells:
        grid[cell.row][cell.column] = "·"
    for n in open_cells:
        c = layout.cells[n - 1]
        grid[c.row][c.column] = ("✓" if marks.get(n) else "✗") if n in marks else "o"
    return "\n".join(" ".join(row).rstrip() for row in grid)


def unreadable(view: StackView, shifted: bool) -> str:
    """The line for a stack that shows no cell, or several: what shows, and why that happens."""
    why = ("the stack is misaligned by more than it tolerates" if shifted
           else "the layout's punch cards do not make one window (run tmphys check)")
    if not view.open_cells:
        return f"no cell shows through: {why}"
    cells = ", ".join(f"{k} ({v:.2f} mm²)" for k, v in view.areas.items())
    return f"unreadable: {len(view.open_cells)} cells show through, {cells}: {why}"


@click.command()
@click.argument("code")
@click.option("--verifier", "verifier", required=True,
              help="The verification card's printed ID: 447, ◊447, G447, O577, B416, P585 …")
@click.option("--layout", "layout_name", default="classic", show_default=True, metavar="NAME|PATH", help=LAYOUT_HELP)
@click.option("--shift", "shifts", multiple=True, metavar="LAYER=DX,DY[,DEG]",
              help="Misplace a layer (blue, yellow, purple punch card, or card = the verification card) "
                   "by DX, DY mm and DEG degrees; simulated as a raster. Repeatable.")
@click.option("--resolution", default=DEFAULT_PX_PER_MM, show_default=True, type=DECIMAL,
              help="Raster resolution when shifting, pixels per mm (0.5..50).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--png", "png_text", default=None, metavar="FILE",
              help="Also draw the stack as it lies on the table (shifted layers where they lie) as a PNG picture.")
@click.option("--svg", "svg_text", default=None, metavar="FILE", help="Also draw the stack as an SVG picture (mm).")
@criteria_option
def stack(code: str, verifier: str, layout_name: str, shifts: tuple[str, ...], resolution: float,
          as_json: bool, png_text: str | None = None, svg_text: str | None = None,
          criteria: Library | None = None) -> int:
    """Stack the punch cards of CODE over a verifier's verification card and read what shows.

    Exit status 0 when exactly one cell shows and it is the code's own (✓ or ✗: the stack reads), 1 when
    no cell or several show (the stack is unreadable) or the one that shows is another cell (a shift that
    misreads), 2 for a usage error.
    """
    try:
        proposal = Code.parse(code)
    except CodeError as e:
        raise click.UsageError(str(e)) from None
    try:
        card, colour = parse_id(verifier, criteria)
    except UnknownIdError as e:
        raise click.UsageError(str(e)) from None
    if not 0.5 <= resolution <= 50:
        raise click.UsageError(f"--resolution must be 0.5..50 pixels per mm, not {resolution:g}")
    pictures = picture_files(png_text, svg_text)
    layout = get_layout(layout_name)
    deck = Deck(layout, criteria)
    placed: dict[str, Placement] = {}
    for layer, placement in map(parse_shift, shifts):
        if layer in placed:
            raise click.UsageError(f"--shift {layer} given twice: one shift a layer")
        placed[layer] = placement
    if placed:
        try:
            raster = Raster(layout, resolution)
        except RasterTooLarge as e:
            raise click.UsageError(str(e)) from None
        view = raster.view(deck, proposal, card, tuple(placed.get(k, Placement()) for k in LAYERS))
    else:
        view = read_stack(deck, proposal, card)
    own = layout.cell_of(proposal).index
    # one window, but a neighbour's: a shift by about a cell pitch reads another cell's mark as if it were right
    misread = view.mark is not None and view.open_cells[0] != own
    if pictures:
        write_pictures(pictures, deck, proposal, card, placed, stack_caption(view, card.label(colour), misread),
                       view.open_cells, card.label(colour))
    if as_json:
        click.echo(json_text({
            "code": str(proposal), "verifier": verifier, "verification_card": card.index,
            "layout": layout.name, "layout_source": layout.source, "open_cells": list(view.open_cells),
            "visible_area_mm2": {str(k): round(v, 3) for k, v in view.areas.items()},
            "marks": {str(k): "pass" if v else "fail" for k, v in view.marks.items()},
            "gap_area_mm2": round(view.gap_area, 3),
            "mark": view.mark, "own_cell": own, "misread": misread,
        }))
        return 0 if view.mark and not misread else 1
    cards = " + ".join(c.label for c in stack_for(proposal))
    click.echo(f"proposal {proposal} ({cards}) over verification card {card.label(colour)} "
               f"on layout {layout.label}")
    click.echo(picture(layout, view.open_cells, view.marks))
    if view.mark is None:
        click.echo(unreadable(view, shifted=bool(placed)))
        return 1
    cell = view.open_cells[0]
    gap = f", and {view.gap_area:.2f} mm² of unprinted gap" if view.gap_area > 0 else ""
    click.echo(f"cell {cell} shows {'✓ pass' if view.mark == 'pass' else '✗ fail'} "
               f"({view.areas[cell]:.2f} mm² visible{gap})")
    if misread:
        click.echo(f"misread: {proposal}'s own cell is {own}, not {cell}: the stack is misaligned by more than it "
                   "tolerates, and shows another cell's mark")
        return 1
    return 0


def stack_caption(view: StackView, label: str, misread: bool = False) -> str:
    """The line under a stack's picture: the proposal, the card, and what shows."""
    if view.mark is None:
        shows = "no cell shows" if not view.open_cells else f"{len(view.open_cells)} cells show: unreadable"
    else:
        shows = f"cell {view.open_cells[0]} shows {'✓ pass' if view.mark == 'pass' else '✗ fail'}"
    return f"{view.code} on {label}: {shows}{' (misread)' if misread else ''}"


def write_pictures(paths: dict[str, Path], deck: Deck, code: Code, card: VerificationCard,
                   placed: dict[str, Placement], caption: str, opened: tuple[int, ...], label: str) -> None:
    """Draw the stack (layers where they lie, the ``opened`` cells ringed) and write it to each asked file
    (``png``/``svg`` by kind)."""
    from tmphys.print.stack_picture import picture_png, picture_svg, stack_picture

    picture = stack_picture(deck, code, card, placed, caption, ring=opened, label=label)
    for kind, path in paths.items():
        data = picture_png(picture) if kind == "png" else picture_svg(picture)
        try:
            write_atomic(path, data)
        except OSError as e:
            raise click.ClickException(path_problem(f"--{kind}", str(path), e)) from None


@click.command()
@click.option("--layout", "layout_name", default="classic", show_default=True, metavar="NAME|PATH",
              help="The layout whose grid, sizes and rules to keep. " + LAYOUT_HELP)
@click.option("--seed", type=AsciiIntRange(0, MAX_PLACE_SEED), default=None,
              help="Seed of the search: the same seed gives the same cards (default: drawn, and printed).")
@click.option("--steps", type=AsciiIntRange(1000, 10_000_000), default=600_000, show_default=True,
              help=f"Annealing steps (about {PLACE_STEPS_PER_SECOND:,} a second: the default takes a minute or "
                   "two).")
@click.option("--out", "out_text", type=click.Path(dir_okay=False), default=None,
              help="Where to write the new layout file, a new file or a regular file to replace (default: "
                   "LAYOUT-SEED.toml here, e.g. classic-7.toml).")
@click.option("--name", "name", default=None,
              help="The new layout's name, which names its build folder output/NAME/ (default: the --out "
                   "file's name without .toml).")
def place(layout_name: str, seed: int | None, steps: int, out_text: str | None, name: str | None) -> int:
    """Search a new placement of the 125 codes on a layout's grid and write it as a new layout file.

    The new file keeps the layout's grid, sizes and rules, and gets its own name and description.
    """
    from tmphys.cards.placement import search

    layout = get_layout(layout_name)
    drawn = seed is None
    if seed is None:
        seed = secrets.randbelow(MAX_PLACE_SEED + 1)
    out = output_file(f"{layout.name}-{seed}.toml" if out_text is None else out_text, "--out")
    whose = "--name" if name is not None else "the --out file's name (or --name)"
    name = out.stem if name is None else name
    if not portable_name(name):
        raise click.UsageError(f"{whose} names the build folder, so must be {NAME_RULE}, not {quote(name)}")
    if shipped_alike(name) is not None:
        raise click.UsageError(f"the new layout would be named {quote(name)}, like a shipped layout: its build "
                               "would replace that one's; choose another --out file name or --name")
    shipped = layout.source in layout_names()  # a bare shipped name is the shipped layout, as load_layout reads it
    source_text = shipped_text(layout.source) if shipped else Path(layout.source).read_text("utf-8")
    header = new_layout_header(layout, name, seed, steps)
    if not has_placement(source_text):
        raise click.UsageError(f"layout {path_text(layout.source)} has no [placement] table to replace")
    tables = np.array([v.criterion.table for v in library().verification_cards])
    rule = layout.rules.isolation if layout.rules.isolation != "none" else "diagonal"
    estimate = max(1, round(steps / PLACE_STEPS_PER_SECOND))
    if sys.stderr is not None and sys.stderr.isatty():  # at a terminal: what it does, for how long, then progress
        click.echo(f"searching a placement on layout {layout.label}: seed {seed}{' (drawn)' if drawn else ''}, "
                   f"{steps:,} annealing steps, about {estimate} s", err=True)
    most = layout.rules.max_autocorrelation  # the search aims no higher than the layout's own rule
    result = with_progress(lambda: search(layout.places(), tables, seed, rule=rule, steps=steps,
                                          target=min(PLACE_TARGET, most)), estimate, f"placing (seed {seed})")
    if result.clashes:
        raise click.ClickException(f"no placement without {rule} clashes found with seed {seed}; "
                                   "try another seed or more steps")
    if result.worst_autocorrelation > most:  # it would fail its own check
        raise click.ClickException(f"no placement with every criterion's Moran's I at most {most:g} (the layout's "
                                   f"rules.max_autocorrelation) found with seed {seed} (best "
                                   f"{result.worst_autocorrelation:.3f}); try another seed or more steps")
    new = header + with_placement(source_text, layout, result.cell_codes, seed, steps, drop_layout=True)
    parse_layout(new, str(out))  # what we write must load
    try:
        write_atomic(out, new.encode("utf-8"))
    except OSError as e:
        raise click.ClickException(f"cannot write {path_text(out)}: {describe(e)}") from None
    click.echo(f"wrote {path_text(out)} (layout {name}, seed {seed}): {result.aim_clashes} neighbour pairs share a "
               f"digit, most clustered criterion Moran's I {result.worst_autocorrelation:.3f}")
    return 0


@click.group("layout")
def layout_group() -> None:
    """The shipped layouts: list them, or print one to copy and edit (tmphys layout show classic > my-cards.toml)."""


@layout_group.command("list")
def layout_list() -> int:
    """List the shipped layouts, each with its description."""
    for shipped_name in layout_names():
        click.echo(f"{shipped_name}: {load_layout(shipped_name).description}")
    return 0


@layout_group.command("show")
@click.argument("layout_name", metavar="NAME|PATH")
def layout_show(layout_name: str) -> int:
    """Print a layout's file: a shipped layout's (to copy, edit and pass as --layout my-cards.toml), or a layout
    file's, once it loads."""
    layout = get_layout(layout_name)
    shipped = layout.source in layout_names()
    text = shipped_text(layout.source) if shipped else Path(layout.source).read_text("utf-8")
    click.echo(text, nl=not text.endswith("\n"))
    return 0
