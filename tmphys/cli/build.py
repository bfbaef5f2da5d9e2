"""``tmphys build``: the print-ready homemade set (PDF sheets, per-card SVGs, cut files, previews).

>>> tmphys build --paper letter --duplex        # writes output/classic/   # doctest: +SKIP
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from tmphys.art import params as P
from tmphys.art.params import PAPERS
from tmphys.cards.layout import Layout, load_layout, shipped_alike
from tmphys.cli.cards import path_problem
from tmphys.cli.criteria import criteria_option
from tmphys.cli.language import lang_option, with_language
from tmphys.cli.numbers import DECIMAL, AsciiIntRange
from tmphys.files import check_writable, describe
from tmphys.game.criteria import Library, untranslated
from tmphys.lang.fit import collecting
from tmphys.print.build import (
    MAX_COPIES,
    BuildError,
    BuildOptions,
    build_files,
    game_files,
    parse_offset,
    plan,
    total_steps,
)
from tmphys.print.folder import check_target, write_tree
from tmphys.print.selection import Selection, SelectionError, chosen_problems
from tmphys.text import path_text, plural, quote


def default_out(layout: Layout, game: bool = False) -> Path:
    """``output/<layout name>/`` (``output/<layout name>-game/`` for the cards of some problems, ``game``); refused
    for a layout file that takes a shipped layout's name but differs.

    Such a file (a copy of classic edited, still saying ``name = "classic"``) would silently replace
    the shipped layout's build.
    """
    alike = shipped_alike(layout.name)
    if layout.source != layout.name and alike is not None:
        shipped = load_layout(alike)
        if replace(layout, source=shipped.source) != shipped:
            raise BuildError(f"layout {path_text(layout.source)} is named {quote(layout.name)} like the shipped layout "
                             f"{quote(alike)} but "
                             f"differs from it: building it into output/{layout.name}/ would replace that build on "
                             "some systems; give it its own name in [layout] or pass --out")
    return Path("output") / (f"{layout.name}-game" if game else layout.name)


def chosen_cards(values: tuple[str, ...], criteria: Library | None = None) -> Selection:
    """The cards of the problems ``--for`` names (``selection.chosen_problems``, read in ``criteria``); BuildError for
    any problem."""
    try:
        return chosen_problems(values, criteria)
    except SelectionError as e:
        raise BuildError(str(e)) from None


def game_summary(selection: Selection, files: dict[str, bytes]) -> str:
    """What a ``--for`` build printed, in a line: how many problems, and each kind of card on how many sheets."""
    def sheets(name: str) -> str:
        return plural(sum(1 for path in files if path.startswith(f"cut/{name}-") and path.endswith(".svg")), "sheet")

    return (f"{plural(len(selection.problems), 'problem')}: {plural(len(selection.verification), 'verification card')}"
            f" on {sheets('verification-cards')}, {plural(len(selection.criteria), 'criteria card')} on "
            f"{sheets('criteria-cards')}, the punch cards on {sheets('punch-cards')}; index.pdf says where each "
            "card is")


def failing_rules(layout: Layout, criteria: Library | None = None) -> str | None:
    """One line naming the rules of ``tmphys check`` the layout breaks, or None when it passes.

    Only the quick logical checks run (stacks, marks, hole size, webs, edges, alignment marks,
    isolation, scramble: a few ms); the raster and the tolerance are left to ``tmphys check``.
    """
    from tmphys.cards.check import quick_check

    violations = quick_check(layout, criteria)
    if not violations:
        return None
    rules = list(dict.fromkeys(v.rule for v in violations))
    name = "rule" if len(rules) == 1 else "rules"
    return (f"layout {layout.label} breaks {len(rules)} {name} of tmphys check ({', '.join(rules)}): "
            f"{violations[0].message}{' …' if len(violations) > 1 else ''}; building it anyway "
            f"(see tmphys check --layout {path_text(layout.source)})")


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
@click.option("--copies", type=AsciiIntRange(1, MAX_COPIES), default=P.PUNCH_COPIES, show_default=True, metavar="N",
              help="Copies of each of the 15 punch cards: one set runs the machine for a whole table (the tray and "
                   "the board hold one set); more are spares or a second table's machine.")
@click.option("--thickness", type=DECIMAL, default=P.HOLDER_THICKNESS, show_default=True, metavar="MM",
              help="Thickness of the card or board the punch-card holder (cut/holder.svg, .dxf) is cut from: its "
                   f"slots are this wide (above 0, at most {P.MAX_HOLDER_THICKNESS:g}).")
@click.option("--ink", type=click.Choice(P.INKS), default="full", show_default=True,
              help="low: for home printers, outlines and patterns instead of large solid fills (✓ cells outlined, "
                   "✗ cells hatched, no card tints), the same geometry.")
@click.option("--for", "for_problems", multiple=True, metavar="PROBLEM",
              help="Print only the cards these problems use (repeatable): a book ID ('#A46 NXF'), app text ('A 4 447 "
                   "B 9 646 C 11 566 D 14 322'), or a file: a booklet's --json, or one problem a line. Writes their "
                   "verification and criteria cards and one set of punch cards, on as few sheets as they fit, with "
                   "their backs, cut files and an index (default --out: output/NAME-game/).")
@lang_option("every printed word and the pages (default --out: output/NAME-CODE/ for a language but English)")
@click.option("--check-fit", is_flag=True,
              help="Write nothing: lay out every text of the kit in the --lang language and say what does not fit "
                   "(exit 1 if anything), the translator's check.")
@criteria_option
def build(layout_name: str, paper: str, out_text: str | None, bleed: float, duplex: bool, back_offset: str,
          kerf: float, copies: int, thickness: float, ink: str = "full", for_problems: tuple[str, ...] = (),
          lang: str = "en", check_fit: bool = False, criteria: Library | None = None) -> None:
    """Write the print-ready set: punch, verification and criteria cards with their backs, cut files, previews, the
    index of the cards, and the table's printed parts (note sheets, player aid, machine board, punch-card holder);
    with --for, only the cards some problems use.

    A layout that breaks a rule of 'tmphys check' (its quick logical checks) is built all the same,
    with a one-line warning on stderr naming the rules: exit status 0 whenever the set is written.
    """
    if out_text is not None and not out_text.strip():
        raise click.UsageError("--out is empty: give the directory to write")
    out = Path(out_text) if out_text is not None else None
    try:
        options = BuildOptions(layout=layout_name, paper=paper.lower(), bleed=bleed, duplex=duplex,
                               back_offset=parse_offset(back_offset), kerf=kerf, copies=copies,
                               thickness=thickness, ink=ink, lang=lang, criteria=criteria)
        the_plan = plan(options)
        if check_fit:
            from tmphys.print.fit_report import fit_report

            misfits = fit_report(lang, the_plan.layout, the_plan.paper, criteria)
            for m in misfits:
                click.echo(f"does not fit: {m.describe()}")
            for what in untranslated(criteria, lang) if criteria is not None else ():
                click.echo(f"not in {lang}, shown in its file's first language: {what}")
            click.echo(f"{lang}: {'every text fits' if not misfits else plural(len(misfits), 'misfit')}")
            sys.exit(1 if misfits else 0)
        selection = chosen_cards(for_problems, criteria) if for_problems else None
        target = out if out is not None else with_language(
            default_out(the_plan.layout, game=selection is not None), lang)
        check_target(target)
    except BuildError as e:
        raise click.UsageError(str(e)) from None
    try:
        check_writable(target, directory=True)
    except OSError as e:
        raise click.UsageError(path_problem("--out" if out is not None else "output directory",
                                            str(target), e)) from None
    warning = failing_rules(the_plan.layout, criteria)
    if warning:
        click.echo(f"tmphys: warning: {warning}", err=True)
    with collecting() as misfits:
        if selection is not None:
            files = game_files(the_plan, selection)
        elif sys.stderr is not None and sys.stderr.isatty():
            with click.progressbar(length=total_steps(the_plan), label=f"building {path_text(target)}",
                                   file=sys.stderr) as bar:
                files = build_files(the_plan, bar.update)
        else:
            files = build_files(the_plan)
    for m in misfits:
        click.echo(f"tmphys: warning: does not fit: {m.describe()}", err=True)
    try:
        came = write_tree(files, target)
    except BuildError as e:  # something came into the folder while the set was drawn: refused as before
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write {path_text(target)}/: {describe(e)}") from None
    if came:  # Ctrl-C or SIGTERM while the new build went in place: it is there, whole
        click.echo("tmphys: interrupted once the new build was written: it is in place, complete", err=True)
    click.echo(f"wrote {len(files)} files to {path_text(target)}/ ({the_plan.options.paper}, layout "
               f"{the_plan.layout.label})")
    if selection is not None:
        click.echo(game_summary(selection, files))
