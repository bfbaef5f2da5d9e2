"""``tmphys build``: the print-ready homemade set (PDF sheets, per-card SVGs, cut file, previews).

>>> tmphys build --paper letter --duplex        # writes output/classic/   # doctest: +SKIP
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import click

from .core_cli import path_problem
from .deck import PUNCH_CARDS, Deck
from .files import check_writable, describe
from .layout import Layout, layout_names, load_layout
from .render import draw, sheets, svg
from .render.build import (
    BuildError,
    BuildOptions,
    Plan,
    build_files,
    check_target,
    parse_offset,
    plan,
    total_steps,
    write_tree,
)
from .render.draw import Box
from .render.params import PAPERS


def default_out(layout: Layout) -> Path:
    """``output/<layout name>/``; refused for a layout file that takes a shipped layout's name but differs.

    Such a file (a copy of classic edited, still saying ``name = "classic"``) would silently replace
    the shipped layout's build.
    """
    if layout.source != layout.name and layout.name in layout_names():
        shipped = load_layout(layout.name)
        if replace(layout, source=shipped.source) != shipped:
            raise BuildError(f"layout {layout.source} is named {layout.name!r} like the shipped layout but differs "
                             f"from it: building it into output/{layout.name}/ would replace that build; give it "
                             "its own name in [layout] or pass --out")
    return Path("output") / layout.name


#: The one long cut strip ``build_files`` makes, replaced by one cut file per printed sheet.
CUT_STRIP = "cut/punch-cards.svg"


def cut_sheets(the_plan: Plan) -> list[tuple[str, bytes]]:
    """The punch cards' cut paths, one SVG per sheet of ``punch-cards.pdf``: (path, bytes) in order.

    Each file is one sheet of the chosen paper (A4: 210 × 297 mm) with every card's cut paths exactly
    where the printed sheet of the same number has that card, so it fits any plotter or laser that takes
    the paper and lines up with the print (print and cut). Holes before outlines, as in every cut file.
    """
    opts, layout, paper = the_plan.options, the_plan.layout, the_plan.paper
    deck = Deck(layout)
    art = {c: draw.punch_card(deck, c, kerf=opts.kerf) for c in PUNCH_CARDS}
    pages = sheets.impose([art[c] for c in PUNCH_CARDS for _ in range(opts.copies)], paper, opts.bleed)
    out = []
    for k, sheet in enumerate(pages, start=1):
        placed = [(s.card, s.x - s.card.trim.x + s.card.frame.x, s.y - s.card.trim.y + s.card.frame.y)
                  for s in sheet.slots]
        title = f"tmphys {layout.name}: punch cards to cut, sheet {k} of {len(pages)} ({paper.name})"
        out.append((f"cut/punch-cards-{k:02d}.svg",
                    svg.cut_svg(placed, Box(0.0, 0.0, paper.width, paper.height), title).encode()))
    return out


def with_cut_sheets(files: dict[str, bytes], the_plan: Plan) -> dict[str, bytes]:
    """``files`` with the long cut strip replaced by ``cut_sheets``, and the manifest to match.

    The strip (153 mm wide and 2.4 m tall for classic on A4) fits no laser bed or cutting plotter.
    """
    files = {path: data for path, data in files.items() if path != CUT_STRIP}
    manifest = json.loads(files["manifest.json"])
    entries = [e for e in manifest["files"] if e["path"] != CUT_STRIP]
    for k, (path, data) in enumerate(cut_sheets(the_plan), start=1):
        files[path] = data
        entries.append({"path": path, "kind": "cut", "sheet": k})
    manifest["files"] = sorted(entries, key=lambda e: e["path"])
    files["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return dict(sorted(files.items()))


def failing_rules(layout: Layout) -> str | None:
    """One line naming the rules of ``tmphys check`` the layout breaks, or None when it passes.

    Only the quick logical checks run (stacks, marks, hole size, webs, edges, alignment marks,
    isolation, scramble: a few ms); the raster and the tolerance are left to ``tmphys check``.
    """
    from .check import quick_check

    violations = quick_check(layout)
    if not violations:
        return None
    rules = list(dict.fromkeys(v.rule for v in violations))
    name = "rule" if len(rules) == 1 else "rules"
    return (f"layout {layout.label} breaks {len(rules)} {name} of tmphys check ({', '.join(rules)}): "
            f"{violations[0].message}{' …' if len(violations) > 1 else ''}; building it anyway "
            f"(see tmphys check --layout {layout.source})")


@click.command()
@click.option("--layout", "layout_name", default="classic", show_default=True, metavar="NAME|PATH",
              help="Card layout: a shipped name (classic, retail) or a .toml file.")
@click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="a4",
              show_default=True, help="Sheet size.")
@click.option("--out", "out_text", type=click.Path(file_okay=False), default=None,
              help="Directory to write (default: output/NAME/, NAME from the layout's [layout] name). "
                   "Replaced as a whole.")
@click.option("--bleed", type=float, default=0.0, show_default=True, metavar="MM",
              help="Extend card backgrounds this far past the cut line.")
@click.option("--duplex", is_flag=True, help="Interleave verification card backs (long-edge flip).")
@click.option("--back-offset", default="0,0", show_default=True, metavar="DX,DY",
              help="Shift backs by this many mm to match your printer's duplex registration.")
@click.option("--kerf", type=float, default=0.0, show_default=True, metavar="MM",
              help="Width of the cut (laser beam, blade): cut paths are offset by half of it.")
@click.option("--copies", type=int, default=3, show_default=True, metavar="N",
              help="Copies of each of the 15 punch cards.")
def build(layout_name: str, paper: str, out_text: str | None, bleed: float, duplex: bool, back_offset: str,
          kerf: float, copies: int) -> None:
    """Write the print-ready set: punch, verification and criteria cards, cut files, previews.

    A layout that breaks a rule of ``tmphys check`` (its quick logical checks) is built all the same,
    with a one-line warning on stderr naming the rules: exit status 0 whenever the set is written.
    """
    if out_text is not None and not out_text.strip():
        raise click.UsageError("--out is empty: give the directory to write")
    out = Path(out_text) if out_text is not None else None
    try:
        options = BuildOptions(layout=layout_name, paper=paper.lower(), bleed=bleed, duplex=duplex,
                               back_offset=parse_offset(back_offset), kerf=kerf, copies=copies)
        the_plan = plan(options)
        target = out if out is not None else default_out(the_plan.layout)
        check_target(target)
    except BuildError as e:
        raise click.UsageError(str(e)) from None
    try:
        check_writable(target, directory=True)
    except OSError as e:
        raise click.UsageError(path_problem("--out" if out is not None else "output directory",
                                            str(target), e)) from None
    warning = failing_rules(the_plan.layout)
    if warning:
        click.echo(f"tmphys: warning: {warning}", err=True)
    if sys.stderr.isatty():
        with click.progressbar(length=total_steps(the_plan), label=f"building {target}",
                               file=sys.stderr) as bar:
            files = build_files(the_plan, bar.update)
    else:
        files = build_files(the_plan)
    files = with_cut_sheets(files, the_plan)
    try:
        write_tree(files, target)
    except OSError as e:
        raise click.ClickException(f"cannot write {target}/: {describe(e)}") from None
    click.echo(f"wrote {len(files)} files to {target}/ ({the_plan.options.paper}, layout {the_plan.layout.label})")
