"""The check, stack and place commands: output, JSON, exit codes and one-line errors."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from importlib import resources

import pytest

from tmphys.cards.layout import load_layout
from tmphys.cli.main import main

#: A seed and a few annealing steps that place meets the rules with (an error, "no placement without diagonal
#: clashes", for most seeds at this budget): on classic's grid (its rules: Moran's I at most 0.09) and on retail's.
CLASSIC_QUICK = ["--seed", "5", "--steps", "3000"]
RETAIL_QUICK = ["--seed", "8", "--steps", "2000"]


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def test_check_passes_on_both_layouts(capsys) -> None:
    for name in ("classic", "retail"):
        code, out, _ = run(["check", "--layout", name], capsys)
        assert code == 0 and "125/125" in out and "all rules pass" in out


def test_check_prints_every_length_the_same_way(capsys) -> None:
    """Lengths with two decimals and their unit; tolerances rounded down (never more than the truth)."""
    code, out, _ = run(["check"], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "layout classic: 75.00 × 110.00 mm, 130 cells (5 decoys), holes 3.00 × 3.00 mm"
    assert lines[2] == "  narrowest web 3.40 mm, hole to edge 7.20 mm, hole to alignment mark 4.50 mm"
    assert lines[5].startswith("  tolerance: 0.77 mm per layer, limited by straying (another cell opens at "
                               "1.70 mm, own window closes at 1.50 mm, leaves its mark at 0.77 mm)")
    for line in lines:  # every figure followed by "mm" has two decimals
        assert not re.search(r"(?<![\d.])(\d+|\d+\.\d|\d+\.\d{3,}) mm\b", line), line


def test_check_json(capsys) -> None:
    code, out, _ = run(["check", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["layout"] == "classic" and data["stacks_checked"] == 125
    assert data["stacks_with_one_cell"] == 125 and data["violations"] == []
    assert data["tolerance_mm"] > 0


def test_check_fails_with_exit_1_on_a_broken_layout(tmp_path, capsys) -> None:
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    path = tmp_path / "tight.toml"
    path.write_text(text.replace("min_web = 1.5", "min_web = 15.0"))
    code, out, _ = run(["check", "--layout", str(path)], capsys)
    assert code == 1 and "VIOLATION web" in out
    code, out, _ = run(["check", "--layout", str(path), "--json"], capsys)
    assert code == 1 and json.loads(out)["violations"][0]["rule"] == "web"


def test_check_warns_of_a_card_no_paper_fits(tmp_path, capsys) -> None:
    """A card cut right but too tall for A4 and Letter passes the rules, with a warning per paper that build
    cannot print it; --json lists the papers it prints on."""
    tall = tmp_path / "tall.toml"
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    tall.write_text(text.replace("height = 110.0", "height = 290.0", 1).replace('name = "classic"', 'name = "tall"'))
    code, out, _ = run(["check", "--layout", str(tall)], capsys)
    warnings = [line for line in out.splitlines() if "WARNING" in line]
    assert code == 0 and len(warnings) == 2 and out.splitlines()[-1] == "all rules pass"
    assert "build cannot print this layout on a4: punch card: a 75 × 298 mm card" in warnings[0]
    code, out, _ = run(["check", "--layout", str(tall), "--json"], capsys)
    assert code == 0 and json.loads(out)["prints_on"] == []
    code, out, _ = run(["check", "--json"], capsys)
    assert code == 0 and json.loads(out)["prints_on"] == ["a4", "letter"]


def test_stack_shows_a_pass(capsys) -> None:
    code, out, _ = run(["stack", "241", "--verifier", "447"], capsys)
    assert code == 0 and "✓ pass" in out
    cell = load_layout().cell_of(__import__("tmphys").Code.parse("241")).index
    # the rounded 3 mm hole (r 0.5 mm): 9 − (4 − π)·0.25 = 8.785 mm², not the 9.00 of its square
    assert f"cell {cell} shows ✓ pass (8.79 mm² visible)" in out
    code, out, _ = run(["stack", "241", "--verifier", "447", "--json"], capsys)
    assert json.loads(out)["visible_area_mm2"] == {str(cell): 8.785}


def test_stack_json(capsys) -> None:
    code, out, _ = run(["stack", "231", "--verifier", "G447", "--layout", "retail", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["code"] == "231" and data["verifier"] == "G447" and data["mark"] == "fail"
    assert data["open_cells"] == [load_layout("retail").cell_of(__import__("tmphys").Code.parse("231")).index]


def test_stack_with_shifts_uses_the_raster(capsys) -> None:
    code, out, _ = run(["stack", "241", "--verifier", "447", "--shift", "blue=0.3,0.2",
                        "--shift", "card=-0.3,0,0.2", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["mark"] == "pass"
    assert 0 < data["visible_area_mm2"][str(data["open_cells"][0])] < 9.0
    code, out, _ = run(["stack", "241", "--verifier", "447", "--shift", "blue=2,0", "--shift", "yellow=-2,0"],
                       capsys)
    assert code == 1 and out.splitlines()[-1] == ("no cell shows through: the stack is misaligned by more than "
                                                  "it tolerates")


@pytest.mark.parametrize("shift, last", [
    ("blue=1000,0", "no cell shows through: the stack is misaligned by more than it tolerates"),
    ("card=3.2,0", "unreadable: 2 cells show through, 106 (4.10 mm²), 107 (3.80 mm²): the stack is misaligned "
                   "by more than it tolerates"),
])
def test_unreadable_stacks_say_why_and_exit_as_documented(shift, last, capsys) -> None:
    code, out, _ = run(["stack", "241", "--verifier", "447", "--shift", shift], capsys)
    assert code == 1 and out.splitlines()[-1] == last
    code, out, _ = run(["stack", "241", "--verifier", "447", "--shift", shift, "--json"], capsys)
    assert code == 1 and json.loads(out)["mark"] is None
    code, out, _ = run(["stack", "--help"], capsys)
    assert code == 0 and "1 when no cell or several show" in " ".join(out.split())


def test_a_shift_that_opens_another_cell_is_a_misread(capsys) -> None:
    """Shifted by a cell pitch, 111's stack opens one window, on cell 119's ✓ where its own cell 120 holds ✗: said,
    and exit 1, not read as an answer."""
    args = ["stack", "111", "--verifier", "447", "--shift", "card=6.4,0"]
    code, out, _ = run(args, capsys)
    assert code == 1 and out.splitlines()[-2].startswith("cell 119 shows ✓ pass")
    assert out.splitlines()[-1] == ("misread: 111's own cell is 120, not 119: the stack is misaligned by more than "
                                    "it tolerates, and shows another cell's mark")
    code, out, _ = run([*args, "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["open_cells"] == [119] and data["own_cell"] == 120 and data["misread"] is True
    code, out, _ = run(["stack", "111", "--verifier", "447", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["open_cells"] == [120] and data["misread"] is False and data["mark"] == "fail"


@pytest.mark.parametrize("args,needle", [
    (["stack", "246", "--verifier", "447"], "not a code: '246'"),
    (["stack", "12", "--verifier", "447"], "not a code: '12'"),
    (["stack", "abc", "--verifier", "447"], "not a code: 'abc'"),
    (["stack", "241", "--verifier", "999"], "no verification card has the ID '999'"),
    (["stack", "241", "--verifier", "G577"], "printed in yellow"),
    (["stack", "241", "--verifier", "447", "--layout", "nope"], "unknown layout 'nope'"),
    (["stack", "241", "--verifier", "447", "--shift", "x"], "bad --shift"),
    (["stack", "241", "--verifier", "447", "--shift", "blue=1e999,0"], "bad --shift 'blue=1e999,0': not finite"),
    # numpy's overflow warnings on stderr, before
    (["stack", "241", "--verifier", "447", "--shift", "blue=1e20,0"], "bad --shift 'blue=1e20,0': more than 1000 mm"),
    (["check", "--layout", ""], "no layout named '' (known: classic, retail;"),
    (["stack", "241", "--verifier", "447", "--shift", "blue=1,0", "--shift", "blue=0,1"], "--shift blue given twice"),
    (["stack", "241"], "Missing option '--verifier'"),
    (["check", "--layout", "missing.toml"], "no layout file missing.toml"),
    (["check", "--layout", "/"], "/ is a directory, not a layout file"),
    (["check", "--resolution", "0"], "--resolution"),
    (["check", "--bogus"], "No such option"),
])
def test_usage_errors_are_one_line_exit_2(args, needle, capsys) -> None:
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tmphys: error: ") and needle in err


def test_malformed_layout_file_names_the_field(tmp_path, capsys) -> None:
    path = tmp_path / "bad.toml"
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    path.write_text(text.replace("pitch_y = 6.4", "pitch_y = -1"))
    code, _, err = run(["check", "--layout", str(path)], capsys)
    assert code == 2 and "grid.pitch_y must be positive" in err


def test_place_writes_a_loadable_layout(tmp_path, capsys) -> None:
    out_path = tmp_path / "mine.toml"
    code, out, _ = run(["place", *RETAIL_QUICK, "--layout", "retail", "--out", str(out_path)], capsys)
    assert code == 0 and out_path.exists()
    mine = load_layout(str(out_path))
    assert mine.seed == 8 and len(mine.cells) == 133
    assert mine.name == "mine" and mine.estimated, "named after the file; retail's sizes are still estimates"
    assert "seed 8" in mine.description and "retail" in mine.description
    text = out_path.read_text("utf-8")
    assert "published" not in text.split("[card]")[0], "nothing of retail's description or header is kept"
    assert 'name = "retail"' not in text and text.startswith('# tmphys layout "mine": a new placement')
    first = out_path.read_bytes()
    run(["place", *RETAIL_QUICK, "--layout", "retail", "--out", str(out_path)], capsys)
    assert out_path.read_bytes() == first  # same seed, same bytes


def test_place_refuses_a_placement_its_own_rules_fail(tmp_path, capsys) -> None:
    """A layout asking for less clustering than the search reaches: refused in one line (exit 1, nothing written),
    as a placement with clashes is, rather than written to fail ``check`` (it was written, Moran's I 0.084 > 0.05)."""
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    strict = tmp_path / "strict.toml"
    strict.write_text(text.replace("max_autocorrelation = 0.09", "max_autocorrelation = 0.01"), "utf-8")
    out_path = tmp_path / "placed.toml"
    code, out, err = run(["place", *CLASSIC_QUICK, "--layout", str(strict), "--out", str(out_path)], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1 and not out_path.exists()
    assert re.match(r"tmphys: error: no placement with every criterion's Moran's I at most 0\.01 \(the layout's "
                    r"rules\.max_autocorrelation\) found with seed 5 \(best 0\.\d{3}\); try another seed", err), err


def test_layouts_ship_with_the_package(tmp_path) -> None:
    """From a directory with no layouts/ folder, the shipped layouts still load by name."""
    result = subprocess.run([sys.executable, "-m", "tmphys", "check", "--layout", "retail", "--json"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["stacks_with_one_cell"] == 125


def test_shipped_names_win_over_the_current_folder(tmp_path, monkeypatch, capsys) -> None:
    """From output/, which holds the build folder classic/, the default layout is still the shipped one;
    a file named like a shipped layout is reached as ./NAME."""
    (tmp_path / "classic").mkdir()
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    (tmp_path / "retail").write_text(text.replace('name = "classic"', 'name = "mine"'), "utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["check"], capsys)
    assert code == 0 and out.startswith("layout classic: ") and err == ""
    code, out, _ = run(["stack", "241", "--verifier", "447", "--layout", "retail", "--json"], capsys)
    assert code == 0 and json.loads(out)["layout"] == "retail"
    assert load_layout("retail").name == "retail" and load_layout("./retail").name == "mine"
    code, _, _ = run(["place", *RETAIL_QUICK, "--layout", "retail", "--out", "new.toml"], capsys)
    assert code == 0 and len(load_layout("new.toml").cells) == 133, "place keeps the shipped retail grid"


def test_written_files_get_ordinary_permissions(tmp_path) -> None:
    import os

    from tmphys.files import current_umask, write_atomic

    target = tmp_path / "a" / "b.txt"
    write_atomic(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert target.stat().st_mode & 0o777 == 0o666 & ~current_umask()
    assert [p.name for p in target.parent.iterdir()] == ["b.txt"]  # no temporary file left behind
    assert os.access(target, os.R_OK)


# --- output paths: refused up front in one line, never replaced when not a regular file ---------------

def test_place_refuses_a_negative_seed(tmp_path, capsys) -> None:
    code, out, err = run(["place", "--seed", "-1", "--steps", "1000", "--out", str(tmp_path / "x.toml")], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--seed" in err and "-1" in err
    assert not (tmp_path / "x.toml").exists()


def unwritable_outs(tmp_path) -> dict[str, tuple[str, str]]:
    """Output paths place must refuse, with what the error must say: a FIFO, a symlink, a file as folder."""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "real.toml").write_text("mine")
    (tmp_path / "link.toml").symlink_to(tmp_path / "real.toml")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dirlink").symlink_to(tmp_path / "dir")
    (tmp_path / "afile").write_text("not a folder")
    return {
        "fifo": (str(fifo), "is a FIFO"),
        "symlink": (str(tmp_path / "link.toml"), "is a symbolic link"),
        "symlink to a directory": (str(tmp_path / "dirlink"), "is a directory"),
        "under a file": (str(tmp_path / "afile" / "x.toml"), "not a directory"),
        "empty": ("", "--out is empty"),
    }


def test_place_refuses_unwritable_outputs_before_searching(tmp_path, capsys, monkeypatch) -> None:
    import stat

    import tmphys.cards.placement

    def no_search(*args, **kwargs):
        raise AssertionError("the output path must be checked before the search")

    monkeypatch.setattr(tmphys.cards.placement, "search", no_search)
    for what, (path, needle) in unwritable_outs(tmp_path).items():
        code, out, err = run(["place", "--seed", "7", "--steps", "1000", "--out", path], capsys)
        assert code == 2 and out == "", what
        assert err.count("\n") == 1 and err.startswith("tmphys: error: ") and needle in err, (what, err)
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode), "the FIFO is still a FIFO"
    assert (tmp_path / "link.toml").is_symlink() and (tmp_path / "real.toml").read_text() == "mine"
    assert (tmp_path / "dirlink").is_symlink() and list((tmp_path / "dir").iterdir()) == []


def test_place_reports_a_failed_write_in_one_line(tmp_path, capsys, monkeypatch) -> None:
    import errno

    import tmphys.cli.cards

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(tmphys.cli.cards, "write_atomic", full)
    target = tmp_path / "mine.toml"
    code, out, err = run(["place", *RETAIL_QUICK, "--layout", "retail", "--out", str(target)], capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and str(target) in err and "No space left on device" in err
    assert "Errno" not in err and not target.exists()


def test_write_atomic_replaces_only_regular_files(tmp_path) -> None:
    import os
    import stat

    from tmphys.files import NotRegularFileError, check_writable, write_atomic

    regular = tmp_path / "regular.txt"
    regular.write_bytes(b"old")
    write_atomic(regular, b"new")
    assert regular.read_bytes() == b"new"
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(regular)
    for name in ("fifo", "dir", "link"):
        with pytest.raises(NotRegularFileError, match="refusing to replace"):
            write_atomic(tmp_path / name, b"data")
        with pytest.raises(NotRegularFileError):
            check_writable(tmp_path / name)
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode)
    assert (tmp_path / "dir").is_dir() and (tmp_path / "link").is_symlink()
    assert regular.read_bytes() == b"new", "the link's target is not written through"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "fifo", "link", "regular.txt"], "no temp files"
    check_writable(tmp_path / "dir", directory=True)  # a real directory may be replaced as a whole
    with pytest.raises(FileNotFoundError, match="no such folder"):  # a typo's folders are not made
        check_writable(tmp_path / "new" / "deeper" / "file.txt")
    with pytest.raises(NotADirectoryError):
        check_writable(regular / "x.txt")


def test_no_command_prints_the_help_plainly(capsys) -> None:
    code, out, err = run([], capsys)
    assert code == 2
    assert "Usage: tmphys" in out + err and "Commands:" in out + err and "error" not in out + err


def test_a_closed_standard_output_is_an_error(tmp_path) -> None:
    """Started with stdout closed (``>&-``), a command would print into nothing and exit 0: it says so instead."""
    result = subprocess.run([sys.executable, "-m", "tmphys", "stack", "241", "447"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            preexec_fn=lambda: os.close(1))
    assert result.returncode == 1 and result.stderr == "tmphys: error: standard output is closed\n"


def test_place_names_the_new_layout(tmp_path, capsys) -> None:
    out_path = tmp_path / "p1.toml"
    code, out, _ = run(["place", *CLASSIC_QUICK, "--name", "my set", "--out", str(out_path)], capsys)
    assert code == 0 and "layout my set" in out
    mine = load_layout(str(out_path))
    assert mine.name == "my set" and not mine.estimated
    assert mine.description.startswith("A new placement of the codes on layout classic's grid (seed 5)")
    classic = load_layout("classic")
    assert (mine.cells, mine.rules, mine.hole_width) == (classic.cells, classic.rules, classic.hole_width)
    assert mine.cell_codes != classic.cell_codes
    code, out, _ = run(["check", "--layout", str(out_path)], capsys)
    assert f"layout my set ({out_path})" in out


def test_place_header_names_the_command_that_remakes_it(tmp_path, capsys) -> None:
    """From a layout file, the header's command names that file (not only the layout name inside it) and the
    new name: run again, it writes the same bytes."""
    source = tmp_path / "my copy.toml"
    source.write_text(resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8"), "utf-8")
    out_path = tmp_path / "p2.toml"
    code, _, _ = run(["place", "--layout", str(source), *CLASSIC_QUICK, "--name", "two", "--out", str(out_path)],
                     capsys)
    assert code == 0
    header = out_path.read_text("utf-8").splitlines()[:2]
    assert header[0].endswith(f'grid of layout "classic" (file {source}).')
    command = shlex.split(header[1].split("`")[1])
    assert command[:4] == ["tmphys", "place", "--layout", str(source)]
    again = tmp_path / "again.toml"
    code, _, _ = run([*command[1:], "--out", str(again)], capsys)
    assert code == 0 and again.read_bytes() == out_path.read_bytes()


@pytest.mark.parametrize("args, needle", [
    (["--out", "OUT/classic.toml"], "like a shipped layout"),
    (["--out", "OUT/x.toml", "--name", "retail"], "like a shipped layout"),
    (["--out", "OUT/Classic.toml"], "like a shipped layout"),  # one folder on a case-insensitive file system
    (["--out", "OUT/x.toml", "--name", "a/b"], "--name names the build folder, so must be a folder name"),
    (["--out", "OUT/x.toml", "--name", ".."], "--name names the build folder, so must be a folder name"),
])
def test_place_refuses_a_name_that_would_clash(args, needle, tmp_path, capsys) -> None:
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    code, out, err = run(["place", "--seed", "7", "--steps", "1000", *args], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err
    assert list(tmp_path.iterdir()) == []
