"""Every input answered in one line, round 2 (#45, #47): property-based tests of the classes an independent fuzzing
round found, each at its root.

- every error message one line of ours (``OneLineError``), whatever text went into it;
- every echo of a user's text through ``quote``: control characters escaped, a file name's undecodable bytes as
  ``\\xe9``, never raw on the terminal, never a UnicodeEncodeError after the work is done;
- deeply nested or huge layout files: refused by name before the TOML parser runs (no RecursionError);
- ``--scheduler`` addresses: tcp:// only, anything else refused at once in one line;
- typed input to ``play`` that is not text in the input's encoding: refused in one line, the game goes on.
"""

from __future__ import annotations

import io
import json
import re
import string
import tomllib
from datetime import timedelta
from importlib import resources
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tmphys.cards.layout import (
    MAX_LAYOUT_BYTES,
    MAX_LAYOUT_NESTING,
    LayoutError,
    load_layout,
    parse_layout,
)
from tmphys.game.problems import ProblemError, parse_problem
from tmphys.text import MESSAGE_LIMIT, clip, path_text, quote, toml_nesting

QUICK = settings(max_examples=150, deadline=timedelta(seconds=10), suppress_health_check=[HealthCheck.too_slow])


def one_line(message: str) -> bool:
    """Whether a message is one line a terminal shows as it is: printable characters only, none it would act on."""
    return message.isprintable() and len(message) <= MESSAGE_LIMIT


def printed(text: str) -> bool:
    """Whether output is lines of printable text: no control character (an escape sequence), no lone surrogate."""
    return all(line.isprintable() for line in text.splitlines()) and "\r" not in text


# --- quote: the one function every echo of a user's text goes through ----------------------------------------

#: Text a user's arguments, paths and typed lines may hold: every Unicode class, terminal escapes, a file name's
#: bytes that are not UTF-8 (kept by Python as lone surrogates), newlines, quote marks.
ANY_TEXT = st.one_of(
    st.text(max_size=80),
    st.lists(st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\x9b", "\udce9", "\udcff", "\n", "\r", "\t", "'", '"',
                              "\\", "\u202e", "\x00", "é", "✓", "a", " "]), max_size=30).map("".join),
)


@QUICK
@given(ANY_TEXT, st.booleans())
@example("\x1b[2J", True)
@example("caf\udce9", False)
def test_quote_shows_what_a_terminal_would_act_on_escaped(text: str, marks: bool) -> None:
    shown = quote(text, marks=marks)
    assert shown.isprintable(), shown
    shown.encode("utf-8")  # no lone surrogate is left to fail at printing
    assert len(shown) <= 10 * min(len(text), 60) + 30  # at most 60 of its characters, each at most 10 shown
    if marks and text.isprintable() and len(text) <= 60:
        assert shown == repr(text)  # printable text is quoted as Python quotes it


def test_quote_shows_a_file_names_bytes_as_bytes() -> None:
    assert quote("caf\udce9.pdf") == "'caf\\xe9.pdf'"
    assert path_text("out/caf\udce9\x1b[2J") == "out/caf\\xe9\\x1b[2J"
    assert quote("\x1b[31mred", marks=False) == "\\x1b[31mred"


# --- messages: one line of ours -----------------------------------------------------------------------------

#: Words of a problem as a user types or pastes them, long and odd ones among them.
PROBLEM_WORDS = st.one_of(
    st.sampled_from(["A", "B", "C", "D", "E", "F", "4", "9", "11", "14", "447", "646", "566", "322", "N17", "13/17",
                     "->", "#", "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754", "G447", "P585", "3", "7", "10", "1"]),
    ANY_TEXT,
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "1", "\x1b", "é"]), st.integers(61, 3000)),
)


@settings(max_examples=200, deadline=timedelta(seconds=10), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PROBLEM_WORDS, max_size=16), st.booleans(), st.booleans(), st.booleans())
@example(["A", "4", "9", "1" * 600], False, False, False)  # the tokens echoed whole: over 600 characters
@example(["9", "646", "#", "4", "P585", "O577", "9", "322", "D"], False, False, False)  # 64 codes listed
@example(["A", "4", "447", "\x1b[2J"], False, False, False)
def test_problem_errors_are_one_line_of_ours(words: list[str], nightmare: bool, extreme: bool, cards: bool) -> None:
    """Through the Python API as through the command line: a problem or a ProblemError of one short printable line
    (a pasted token was echoed whole, 64 passing codes listed: over 500 characters)."""
    try:
        parse_problem(words, nightmare=nightmare, extreme=extreme, cards_only=cards)
    except ProblemError as e:
        assert one_line(str(e)), str(e)


@QUICK
@given(ANY_TEXT, st.integers(1, 5))
def test_a_library_message_of_several_lines_becomes_one(text: str, lines: int) -> None:
    message = "\n".join([f"line {k}: {text}" for k in range(lines)])
    assert one_line(clip(message))
    assert one_line(str(LayoutError(message))) and one_line(str(ProblemError(message * 50)))


# --- echoes of paths and arguments at the command line ---------------------------------------------------------

#: Paths holding terminal escapes, a Latin-1 byte (as Python reads it from argv), a newline, a NUL (only through the
#: Python API: no argv holds one).
ODD_PATHS = st.builds(lambda a, b: f"{a}{b}.toml", st.sampled_from(["", "out/", "/dev/null/"]),
                      st.lists(st.sampled_from(["\x1b[2J", "\x1b]0;t\x07", "\udce9", "\x9b", "a", "é", "\n", " ",
                                                "\x00"]), min_size=1, max_size=6).map("".join))


@settings(max_examples=60, deadline=timedelta(seconds=20),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(argv=st.sampled_from([
    ["check", "--layout", "{p}"],
    ["stack", "241", "--verifier", "447", "--layout", "{p}"],
    ["stack", "241", "--verifier", "447", "--png", "/dev/null/{p}"],
    ["solve", "--cards", "3", "7", "10", "14", "--steps", "2000", "--layout", "{p}"],
    ["solve", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322", "{p}"],
    ["solve", "--cards", "3", "7", "10", "14", "--chart", "{p}"],
    ["place", "--layout", "{p}"],
    ["build", "--layout", "{p}"],
    ["build", "--out", "/proc/{p}"],
    ["booklet", "--out", "/dev/null/{p}"],
    ["prove", "241", "{p}"],
    ["layout", "show", "{p}"],
]), path=ODD_PATHS)
@example(argv=["check", "--layout", "{p}"], path="\x1b[2Jclear.toml")
def test_every_echo_of_a_users_text_is_escaped(argv: list[str], path: str, capsys, monkeypatch) -> None:
    """A clear-screen sequence in a layout path, an --out path or a problem's token reached the terminal raw, and a
    path with Latin-1 bytes raised UnicodeEncodeError while printed: every echo goes through ``quote``."""
    from tmphys.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as done:
        main([word.replace("{p}", path) for word in argv])
    out, err = capsys.readouterr()
    assert done.value.code in (1, 2), (argv, err)
    assert printed(out) and printed(err), (argv, out, err)
    assert len(err.splitlines()) == 1 and one_line(err.strip()), err


def test_a_path_in_no_encoding_is_printed_as_its_bytes_on_a_utf8_terminal(tmp_path: Path, monkeypatch) -> None:
    """solve --html and --chart, and build --out, to a path holding a Latin-1 byte under a UTF-8 locale wrote their
    files, then failed with UnicodeEncodeError printing the path (exit 1): the path is printed with the byte as
    ``\\xe9``, exit 0."""
    import tmphys.cli.build
    from tmphys.cli.main import main

    def fake_build(the_plan, progress=None):
        return {"a.txt": b"a", "manifest.json": json.dumps({"layout": "classic", "paper": "a4",
                                                             "files": [{"path": "a.txt"}]}).encode()}

    monkeypatch.setattr(tmphys.cli.build, "build_files", fake_build)
    name = "caf\udce9"  # the byte 0xe9 of a Latin-1 name, as Python reads it from argv under a UTF-8 locale
    for argv, written in (
            (["solve", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322", "--steps", "2000",
              "--html", str(tmp_path / f"{name}.html"), "--chart", str(tmp_path / f"{name}.pdf")],
             ["Wrote ", "caf\\xe9.pdf", "caf\\xe9.html"]),
            (["build", "--out", str(tmp_path / name)], ["wrote 2 files to ", "caf\\xe9/"])):
        stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # strict, as on a UTF-8 terminal
        monkeypatch.setattr("sys.stdout", stdout)
        with pytest.raises(SystemExit) as done:
            main(argv)
        stdout.flush()
        text = stdout.buffer.getvalue().decode("utf-8")
        assert done.value.code == 0 and all(part in text for part in written), text
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"{name}.html", f"{name}.pdf", name])


# --- layout files: nesting and size refused before parsing ---------------------------------------------------

#: How a level of nesting opens and closes: arrays and inline tables, a key that holds a bracket.
LEVELS = (("[", "]"), ("[", ", 1]"), ("{k = ", "}"), ('{"[" = ', "}"))


@st.composite
def nested(draw: st.DrawFn) -> tuple[str, int]:
    """A TOML value nested ``depth`` deep in arrays and inline tables (from a few levels to past the parser's
    recursion limit), around a value whose strings hold brackets, and its depth."""
    depth = draw(st.one_of(st.integers(0, 12), st.integers(13, 1200)))
    pattern = draw(st.lists(st.sampled_from(LEVELS), min_size=1, max_size=4))
    inner = draw(st.sampled_from(['1', '"[[{"', "'}]'", '"""a ] "" """', "'''[ '''", "[]", "{}"]))
    levels = [pattern[k % len(pattern)] for k in range(depth)]
    text = "".join(o for o, _ in levels) + inner + "".join(c for _, c in reversed(levels))
    return text, depth + (inner in ("[]", "{}"))


@settings(max_examples=60, deadline=timedelta(seconds=10), suppress_health_check=[HealthCheck.too_slow])
@given(nested(), st.sampled_from(["", "[card]\n", "[grid]\n"]))
@example(("[" * 600 + "]" * 600, 600), "")  # past the parser's recursion limit (about 500 levels)
def test_deep_layout_files_are_refused_by_name(value: tuple[str, int], table: str) -> None:
    """A layout nested thousands deep raised RecursionError from the TOML parser (or, caught, Python's "maximum
    recursion depth exceeded"): the nesting is read first and refused by name."""
    text, depth = value
    try:
        parse_layout(f"{table}x = {text}\n", "deep.toml")
    except LayoutError as e:
        assert one_line(str(e))
        assert ("nested" in str(e)) == (depth > MAX_LAYOUT_NESTING), (depth, str(e))
        assert "recursion" not in str(e)
        return
    raise AssertionError("a layout with an unknown key loaded")


def _inline(value: object) -> str:
    """A value as TOML's inline form writes it (JSON's string escapes are TOML's)."""
    if isinstance(value, list):
        return "[" + ", ".join(map(_inline, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


TOML_VALUES = st.recursive(
    st.one_of(st.integers(-9, 9), st.text(alphabet="[]{}'\"#\\ab\n\t", max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text("[]{}#'\"k", max_size=3), inner,
                                                                          max_size=3)),
    max_leaves=12)


@QUICK
@given(TOML_VALUES, st.sampled_from(["", "# [[[ a comment\n", "[t]\n"]))
def test_the_nesting_is_read_from_brackets_outside_strings_and_comments(value: object, before: str) -> None:
    text = f"{before}v = {_inline(value)}  # ]]\n"
    assert tomllib.loads(text)["t" if before == "[t]\n" else "v"] is not None
    assert toml_nesting(text) == max(_depth(value), 1 if before == "[t]\n" else 0)


def test_a_huge_or_undecodable_layout_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """A layout file of megabytes (a comment or a string) was parsed whole; one in Latin-1 gave Python's codec
    wording: both refused in one line of ours naming the limit or the byte."""
    text = resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8")
    big = tmp_path / "big.toml"
    big.write_text(text + "#" + "x" * MAX_LAYOUT_BYTES + "\n", "utf-8")
    with pytest.raises(LayoutError, match=f"more than the {MAX_LAYOUT_BYTES:,} bytes") as error:
        load_layout(str(big))
    assert one_line(str(error.value))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(text.replace('description = "', 'description = "caf\xe9 ', 1).encode("latin-1"))
    with pytest.raises(LayoutError, match=r"not UTF-8 text \(byte 0xe9 on line \d+\)") as error:
        load_layout(str(latin))
    assert "codec" not in str(error.value)


# --- cluster addresses ----------------------------------------------------------------------------------------

HOSTS = st.one_of(st.sampled_from(["localhost", "h", "10.0.0.7", "[::1]", "node-3.example.org", "bad host", ""]),
                  st.text(alphabet=string.ascii_letters + string.digits + ".-_[]:/ \x1b", max_size=12))
PROTOCOLS = st.one_of(st.sampled_from(["", "tcp://", "TCP://", "tls://", "ucx://", "inproc://", "ws://", "wss://",
                                       "udp://", "://", "http://"]),
                      st.text(alphabet=string.ascii_lowercase + "+.-", min_size=1, max_size=6).map(lambda s: s + "://"))


@settings(max_examples=200, deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])
@given(PROTOCOLS, HOSTS, st.one_of(st.integers(0, 10**6).map(str), st.sampled_from(["", "x", "8786 ", "-1"])))
@example("tls://", "h", "8786")
@example("tcp://", "h", "99999")
@example("inproc://", "x", "1")
def test_scheduler_addresses_are_tcp_or_refused_at_once(protocol: str, host: str, port: str) -> None:
    """tls:// and ucx:// reached Dask and failed deep inside it with a TypeError; tcp://h:99999 waited 10 s: an
    address is tcp://HOST:PORT (or HOST:PORT) with a port 1..65535, anything else refused in one line, before any
    connection."""
    from tmphys.cli.numbers import SCHEDULER

    address = f"{protocol}{host}:{port}"
    try:
        value = SCHEDULER.convert(address, None, None)
    except click.BadParameter as e:
        assert one_line(e.format_message()), e.format_message()
        return
    m = re.fullmatch(r"tcp://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):([0-9]+)", value)
    assert m and protocol.lower() in ("", "tcp://") and 1 <= int(m[2]) <= 65535, (address, value)


@pytest.mark.parametrize("address,says", [
    ("tcp://h:99999", "port 99999 is not 1..65535"),
    ("inproc://x:1", "inproc:// is an address inside one Python process, which no other process can reach; tmphys "
                     "reaches a Dask scheduler over tcp:// only"),
    ("tls://h:8786", "tls:// needs certificates"),
    ("ucx://h:8786", "ucx:// needs the UCX library"),
])
def test_a_scheduler_dask_cannot_reach_from_here_is_a_usage_error(address: str, says: str, capsys) -> None:
    """Refused at once (exit 2, one line), where tcp://h:99999 waited 10 s and inproc:// gave a confusing line."""
    from tmphys.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["generate", "--rate", "--scheduler", address])
    err = capsys.readouterr().err
    assert done.value.code == 2 and says in err and len(err.splitlines()) == 1


def test_whatever_dask_raises_while_connecting_is_one_line(monkeypatch) -> None:
    """A TypeError of several lines from inside Dask (tls:// without certificates did it) reaches the user as one
    line of ours."""
    import dask.distributed

    from tmphys.solve.runner import run_all

    def broken(*args, **kwargs):
        raise TypeError("deep inside\n  the library\n" + "x" * 2000)

    monkeypatch.setattr(dask.distributed, "Client", broken)
    with pytest.raises(RuntimeError) as error:
        run_all(print, [(1,)], scheduler="tcp://h:8786")
    assert one_line(str(error.value)) and str(error.value).startswith("cannot reach the Dask scheduler at tcp://h:8786")


# --- typed input to play --------------------------------------------------------------------------------------

PLAY = ["play", "A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322", "--steps", "2000"]
#: Lines a player might type, in any encoding: answers, the game's own symbols, Latin-1 bytes, junk, long lines.
TYPED = st.one_of(
    st.sampled_from([b"y", b"n", b"A y", b"end", b"undo", b"propose 241", b"\xe2\x9c\x93", b"\xe2\x9c\x97",
                     b"caf\xe9", b"\xe9", b"\x81\x8d", b"\x1b[2J", b"A \xff"]),
    st.binary(max_size=12).filter(lambda b: b"\n" not in b),
    st.just(b"x" * 5000),
)


@settings(max_examples=40, deadline=timedelta(seconds=30),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=st.lists(TYPED, max_size=6), encoding=st.sampled_from(["utf-8", "ascii", "cp1252", "latin-1"]))
@example(lines=[b"\xe9", b"y"], encoding="utf-8")
@example(lines=[b"\xe2\x9c\x93"], encoding="ascii")
@example(lines=[b"\x81"], encoding="cp1252")
def test_play_answers_any_typed_bytes_in_one_line(lines: list[bytes], encoding: str, capsys, monkeypatch) -> None:
    """A UTF-8 terminal given Latin-1 bytes, an ASCII or cp1252 one given ✓: UnicodeDecodeError from the prompt in 575
    of 1,000 fuzzed sessions. Each line is read as bytes: one that is not text in the terminal's encoding is refused
    in one line and the game goes on at the same question; the rest the game answers or refuses."""
    from tmphys.cli.main import main

    stdin = io.TextIOWrapper(io.BytesIO(b"".join(line + b"\n" for line in lines)), encoding=encoding)
    monkeypatch.setattr("sys.stdin", stdin)
    with pytest.raises(SystemExit) as done:
        main(PLAY)
    out, err = capsys.readouterr()
    assert done.value.code in (0, 1), err
    assert printed(out) and printed(err) and "Traceback" not in err
    for line in out.splitlines():
        assert len(line) <= 700, line
    read = out.count("What did the stack show") - (done.value.code == 1)  # the last prompt met the end of input
    unreadable = sum(1 for line in lines[:read] if _undecodable(line, encoding) and len(line) <= 1000)
    assert out.count("Cannot read that line") == unreadable


def _undecodable(line: bytes, encoding: str) -> bool:
    try:
        line.decode(encoding)
        return False
    except UnicodeDecodeError:
        return True


# --- as other keyboards and other spellings type it -------------------------------------------------------------

def test_full_width_digits_are_read_as_digits(capsys: pytest.CaptureFixture) -> None:
    """A Japanese keyboard in its full-width mode types ５１５, Ｇ４４７ and ideographic spaces: codes, IDs, card
    numbers and problems read them as their ASCII forms (NFKC); ⑤, ² and other scripts' digits stay refused."""
    from tmphys.cli.main import main
    from tmphys.game.codes import Code
    from tmphys.game.criteria import UnknownIdError, criteria_card, parse_id
    from tmphys.text import halfwidth, whole_number

    assert halfwidth("Ｇ４４７，　５") == "G447, 5" and halfwidth("⑤²٤") == "⑤²٤"
    assert whole_number("５１５") == 515 and whole_number("⑤") is None and whole_number("٤٤٧") is None
    assert Code.parse("２４１") == Code.parse("▲２ ■４ ●１") == Code.parse("241")
    assert parse_id("Ｇ４４７") == parse_id("G447") and parse_id("＃５７７") == parse_id("#577")
    assert criteria_card("Ｎ１４") is criteria_card(14)
    with pytest.raises(UnknownIdError):
        parse_id("⑤")
    assert parse_problem("Ａ　４　４４７，Ｂ　９　６４６ C 11 566 D 14 322") == parse_problem(
        "A 4 447 B 9 646 C 11 566 D 14 322")
    with pytest.raises(SystemExit) as done:
        main(["solve", "--cards", "３", "７", "１０", "１４"])
    assert done.value.code == 0 and "7 codes possible: 122 132 152 431 432 435 534" in capsys.readouterr().out


def test_a_problem_of_fewer_than_four_verifiers_says_how_many_a_problem_has() -> None:
    """Three criteria cards with no game among them: the problem is too small, not merely "no valid game"."""
    with pytest.raises(ProblemError, match="^a problem has 4–6 verifiers, not 3: no valid game uses"):
        parse_problem("3 7 10")
    with pytest.raises(ProblemError, match="no valid game uses these criteria cards: no choice"):
        parse_problem("1 2 3 4")  # four verifiers and no game: that reason, as before


@pytest.mark.parametrize("typed, code", [("DE", "de"), ("pt_BR", "pt-BR"), ("PT-br", "pt-BR"), ("zh-hant", "zh-Hant"),
                                         ("ZH_HANS", "zh-Hans"), ("en", "en")])
def test_lang_reads_a_code_as_bcp_47_does(typed: str, code: str) -> None:
    """BCP 47 tags are case-insensitive and ``_`` is a common slip for ``-``: each names its canonical code."""
    from tmphys.cli.language import lang_option
    from tmphys.lang.i18n import UnknownLanguageError, check_language

    assert check_language(typed) == code

    @click.command()
    @lang_option("the test")
    def show(lang: str) -> None:
        click.echo(lang)

    from click.testing import CliRunner

    result = CliRunner().invoke(show, ["--lang", typed])
    assert result.exit_code == 0 and result.output == f"{code}\n"
    with pytest.raises(UnknownLanguageError):
        check_language("pt_PT")


def test_app_out_a_file_says_it_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``tmphys app --out FILE``: the path is a file, where a folder was asked for (it was "not a regular file")."""
    from tmphys.cli.main import main

    target = tmp_path / "notes.txt"
    target.write_text("mine")
    with pytest.raises(SystemExit) as done:
        main(["app", "--out", str(target)])
    err = capsys.readouterr().err
    assert done.value.code == 2 and f"--out {target} is a file, not a folder" in err and one_line(err.strip())
    assert target.read_text() == "mine"


# --- output paths: a missing folder is an error naming it, never a tree of folders made (#54) -------------------

EASY_PROBLEM = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]


@pytest.mark.parametrize("args, option, missing", [
    (["build", "--out", "typo/deep/dir"], "--out", "typo/deep"),
    (["app", "--out", "typo/app"], "--out", "typo"),
    (["booklet", "--out", "typo/b.pdf", "--count", "1"], "--out", "typo"),
    (["booklet", "--cards", "typo/cards", "--count", "1"], "--cards", "typo"),
    (["place", "--out", "typo/x.toml"], "--out", "typo"),
    (["solve", "--cards", "4", "9", "11", "14", "--html", "typo/g.html"], "--html", "typo"),
    (["solve", "--cards", "4", "9", "11", "14", "--chart", "typo/c.pdf"], "--chart", "typo"),
    (["stack", "241", "--verifier", "447", "--png", "ty po/s.png"], "--png", "ty po"),
    (["prove", "241", *EASY_PROBLEM, "--svg", "typo/s.svg"], "--svg", "typo"),
    (["build", "--out", "output/typo/dir"], "--out", "output/typo"),
])
def test_a_missing_folder_of_an_output_is_one_line_and_nothing_is_written(
        args: list[str], option: str, missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    from tmphys.cli.main import main

    monkeypatch.chdir(tmp_path)
    if missing.startswith("output/"):
        (tmp_path / "output").mkdir()
    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert err.startswith(f"tmphys: error: {option} ") and err.count("\n") == 1
    assert f"{path_text(missing)}: no such folder" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == (["output"] if missing.startswith("output/") else [])


def test_the_default_output_folder_is_still_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture) -> None:
    from tmphys.cli.main import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["build", "--for", " ".join(EASY_PROBLEM), "--out", "output/game"])
    assert done.value.code == 0 and (tmp_path / "output" / "game" / "index.pdf").is_file()


# --- build --for FILE: bounded, and only ever a text file of problems (#54) -------------------------------------

def _build_for(value: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    from tmphys.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["build", "--for", value, "--out", str(tmp_path / "cards")])
    out, err = capsys.readouterr()
    return done.value.code, out, err


def test_build_for_a_file_of_one_problem_many_times_prints_that_problems_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "same.txt").write_text("#A46 NXF\n" * 20_000)
    code, out, err = _build_for(str(tmp_path / "same.txt"), tmp_path, capsys)
    assert code == 0, err
    assert "1 problem: 4 verification cards on 1 sheet" in out


def test_build_for_is_bounded_in_bytes_and_in_problems(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tmphys.print import selection

    (tmp_path / "big.txt").write_bytes(b"# a comment line\n" * (selection.MAX_FOR_BYTES // 17 + 1))
    code, _, err = _build_for(str(tmp_path / "big.txt"), tmp_path, capsys)
    assert code == 2 and err.count("\n") == 1 and "larger than 1 MB, the most a file of problems may hold" in err
    monkeypatch.setattr(selection, "MAX_FOR_PROBLEMS", 2)
    (tmp_path / "three.txt").write_text("#A46 NXF\n#A46 NXF\n#A48 DRC\n#A46 NXF\n#A41 182\n")
    code, _, err = _build_for(str(tmp_path / "three.txt"), tmp_path, capsys)
    assert code == 2 and err == "tmphys: error: --for: more than 2 different problems, the most one build prints " \
                                "the cards of\n"
    assert not (tmp_path / "cards").exists()


def test_build_for_anything_but_a_text_file_of_problems_is_one_line(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    import os

    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")  # never opened: reading it would wait for a writer
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    (tmp_path / "doc.pdf").write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    for name in ("folder", "pipe", "picture.png", "doc.pdf", "latin1.txt"):
        code, _, err = _build_for(str(tmp_path / name), tmp_path, capsys)
        assert code == 2 and err.count("\n") == 1, name
        assert err.endswith(": not a text file of problems (one problem a line, or a booklet's --json)\n"), name


def test_build_for_quotes_a_line_that_is_not_a_problem_cut_short(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    line = "root:x:0:0:root:/root:/bin/bash\x1b[2J" + "secret" * 30
    (tmp_path / "passwd").write_text(f"#A46 NXF\n{line}\n")
    code, _, err = _build_for(str(tmp_path / "passwd"), tmp_path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert f", line 2: not a problem: {quote(line)}" in err
    assert "\\x1b[2J" in err and "\x1b" not in err and "secret" * 3 not in err
