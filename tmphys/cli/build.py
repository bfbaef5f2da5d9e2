"""``tmphys build``: the print-ready homemade set (PDF sheets, per-card SVGs, cut files, previews).

>>> tmphys build --paper letter --duplex        # writes output/classic/   # doctest: +SKIP
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from tmphys.cards.layout import Layout, load_layout, shipped_alike
from tmphys.cli.cards import path_problem
from tmphys.cli.numbers import DECIMAL, INTEGER
from tmphys.files import check_writable, describe
from tmphys.render import params as P
from tmphys.render.build import (
    MAX_COPIES,
    BuildError,
    BuildOptions,
    build_files,
    check_target,
    parse_offset,
    plan,
    total_steps,
    write_tree,
)
from tmphys.render.params import PAPERS


def default_out(layout: Layout) -> Path:
    """``output/<layout name>/``; refused for a layout file that takes a shipped layout's name but differs.

    Such a file (a copy of classic edited, still saying ``name = "classic"``) would silently replace
    the shipped layout's build.
    """
    alike = shipped_alike(layout.name)
    if layout.source != layout.name and alike is not None:
        shipped = load_layout(alike)
        if replace(layout, source=shipped.source) != shipped:
            raise BuildError(f"layout {layout.source} is named {layout.name!r} like the shipped layout {alike!r} but "
                             f"differs from it: building it into output/{layout.name}/ would replace that build on "
                             "some systems; give it its own name in [layout] or pass --out")
    return Path("output") / layout.name


def failing_rules(layout: Layout) -> str | None:
    """One line naming the rules of ``tmphys check`` the layout breaks, or None when it passes.

    Only the quick logical checks run (stacks, marks, hole size, webs, edges, alignment marks,
    isolation, scramble: a few ms); the raster and the tolerance are left to ``tmphys check``.
    """
    from tmphys.cards.check import quick_check

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
                   "An earlier build there is replaced as a whole; a folder holding anything else is refused.")
@click.option("--bleed", type=DECIMAL, default=0.0, show_default=True, metavar="MM",
              help=f"Extend card backgrounds this far past the cut line (0..{P.MAX_BLEED:g}).")
@click.option("--duplex", is_flag=True, help="Interleave the card backs with their fronts (long-edge flip).")
@click.option("--back-offset", default="0,0", show_default=True, metavar="DX,DY",
              help="Shift backs by this many mm to match your printer's duplex registration: DX to the right, "
                   f"DY down, on the printed back side seen upright (each within ±{P.MAX_BACK_OFFSET:g}).")
@click.option("--kerf", type=DECIMAL, default=0.0, show_default=True, metavar="MM",
              help=f"Width of the cut (laser beam, blade): cut paths are offset by half of it (0..{P.MAX_KERF:g}).")
@click.option("--copies", type=INTEGER, default=3, show_default=True, metavar="N",
              help=f"Copies of each of the 15 punch cards (1..{MAX_COPIES}).")
@click.option("--thickness", type=DECIMAL, default=P.HOLDER_THICKNESS, show_default=True, metavar="MM",
              help="Thickness of the card or board the punch-card holder (cut/holder.svg, .dxf) is cut from: its "
                   f"slots are this wide (above 0, at most {P.MAX_HOLDER_THICKNESS:g}).")
def build(layout_name: str, paper: str, out_text: str | None, bleed: float, duplex: bool, back_offset: str,
          kerf: float, copies: int, thickness: float) -> None:
    """Write the print-ready set: punch, verification and criteria cards with their backs, cut files, previews, and
    the table's printed parts (note sheets, player aid, machine board, punch-card holder).

    A layout that breaks a rule of 'tmphys check' (its quick logical checks) is built all the same,
    with a one-line warning on stderr naming the rules: exit status 0 whenever the set is written.
    """
    if out_text is not None and not out_text.strip():
        raise click.UsageError("--out is empty: give the directory to write")
    out = Path(out_text) if out_text is not None else None
    try:
        options = BuildOptions(layout=layout_name, paper=paper.lower(), bleed=bleed, duplex=duplex,
                               back_offset=parse_offset(back_offset), kerf=kerf, copies=copies,
                               thickness=thickness)
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
    if sys.stderr is not None and sys.stderr.isatty():
        with click.progressbar(length=total_steps(the_plan), label=f"building {target}",
                               file=sys.stderr) as bar:
            files = build_files(the_plan, bar.update)
    else:
        files = build_files(the_plan)
    try:
        write_tree(files, target)
    except BuildError as e:  # something came into the folder while the set was drawn: refused as before
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write {target}/: {describe(e)}") from None
    click.echo(f"wrote {len(files)} files to {target}/ ({the_plan.options.paper}, layout {the_plan.layout.label})")
