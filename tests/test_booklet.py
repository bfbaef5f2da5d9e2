"""``tmphys booklet``: generated problems re-solved, ratings re-rated, the PDF's text read back, same bytes however
the ratings were made (here, on 2 processes, on a Dask LocalCluster)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pytest
from pdfread import mm

from tmphys.art import params as P
from tmphys.cli.main import main
from tmphys.game.problems import parse_problem
from tmphys.print.booklet import BookletProblem
from tmphys.solve.runner import rate, rate_all

STEPS = 20_000


def run(args: list[str]) -> int:
    """Run ``tmphys`` in process; its exit status."""
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    return int(exit_info.value.code or 0)


def booklet(tmp_path: Path, capsys: pytest.CaptureFixture, name: str, *args: str) -> tuple[dict, bytes]:
    """Write a booklet with --json: the JSON and the PDF's bytes."""
    out = tmp_path / f"{name}.pdf"
    capsys.readouterr()
    assert run(["booklet", *args, "--out", str(out), "--json"]) == 0
    return json.loads(capsys.readouterr().out), out.read_bytes()


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """The README's booklet, smaller: Classic, easy, seed 1, 8 problems, rated on one process."""
    out = tmp_path_factory.mktemp("booklet") / "classic.pdf"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.raises(SystemExit) as done:
        main(["booklet", "--mode", "classic", "--difficulty", "easy", "--count", "8", "--seed", "1", "--steps",
              str(STEPS), "--workers", "1", "--out", str(out), "--json"])
    assert (done.value.code or 0) == 0
    return json.loads(buf.getvalue()), out


def test_answers_and_ratings_are_the_solvers(classic: tuple[dict, Path]) -> None:
    """Every line reads back as a problem whose one code is the answer, and rates again to the printed rating;
    the problems go from the easiest to the hardest, numbered in that order."""
    data, _ = classic
    problems = data["problems"]
    assert [p["number"] for p in problems] == list(range(1, 9))
    keys = [(p["rating"]["rounds"], p["rating"]["questions"]) for p in problems]
    assert keys == sorted(keys)
    for p in problems:
        problem = parse_problem(p["line"])
        assert str(problem.solution()) == p["answer"]
        r, q = rate(problem, None, STEPS)
        assert p["rating"] == {"rounds": float(r), "questions": float(q), "exact": True,
                               "rounds_fraction": p["rating"]["rounds_fraction"],
                               "questions_fraction": p["rating"]["questions_fraction"]}
        assert p["rating"]["rounds_fraction"] in (str(r), f"{r.numerator}/{r.denominator}")


def test_pdf_is_selectable_text_in_an_embedded_subset(classic: tuple[dict, Path]) -> None:
    """The PDF's text, read back, holds every problem's number, rating and line (to copy into tmphys play), in an
    embedded subset of the cards' font; the answers are drawn, not text: a viewer's search for "Problem 3" finds
    the problem only, never its answer."""
    from tmphys.print.booklet import answer_lines

    data, path = classic
    with pdfplumber.open(path) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
        fonts = {c["fontname"] for page in pdf.pages for c in page.chars}
    answers_page = next(k for k, text in enumerate(pages) if text.startswith("Answers"))
    text = "\n".join(pages[:answers_page])
    assert fonts and all("+" in f and "Vera" in f for f in fonts), fonts  # subset-tagged: embedded
    for p in data["problems"]:
        assert f"Problem {p['number']}" in text
        assert f"tmphys play {p['line']}" in text
        assert f"{p['rating']['rounds']:.2f} rounds, {p['rating']['questions']:.2f} questions" in text
        hits = [k for k, page in enumerate(pages) if re.search(rf"Problem {p['number']}\b", page)]
        assert hits and max(hits) < answers_page, (p["number"], hits)
    assert answer_lines([booklet_problem(p) for p in data["problems"]]) == [
        f"Problem {p['number']}: {p['answer']}" for p in data["problems"]]
    assert "Answers" not in text and not any(p["answer"] in pages[answers_page] for p in data["problems"])


def test_answers_stand_on_a_sheet_of_their_own_and_every_page_has_a_ruler(classic: tuple[dict, Path]) -> None:
    """Printed on both sides, the answers begin on a sheet's front (a blank back when the problems end on a front),
    so they are never on the back of a problem; they are drawn (ink on their page); every page has its 100 mm ruler
    and counts sheets in its footer."""
    import numpy as np
    import pypdfium2

    with pdfplumber.open(path := classic[1]) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
        answers_page = next(k for k, t in enumerate(pages) if t.startswith("Answers"))
        assert answers_page % 2 == 0, "the answers' page is a sheet's front (page 1, 3, 5 …)"
        assert "Problem" in pages[answers_page - 1] or "blank" in pages[answers_page - 1]
        for k, page in enumerate(pdf.pages):
            foot = mm(page.height) - P.BOOK_MARGIN
            ticks = [o for o in page.lines if mm(o["top"]) > foot - 1 and abs(o["x1"] - o["x0"]) < 1e-6]
            xs = sorted({round(mm(o["x0"]), 2) for o in ticks})
            assert len(xs) == 101 and xs[-1] - xs[0] == pytest.approx(P.RULER_LENGTH, abs=0.01), k
            assert f"page {k + 1} of {len(pages)} · sheet {k // 2 + 1} of {(len(pages) + 1) // 2}" in pages[k]
    doc = pypdfium2.PdfDocument(path)
    try:
        ink = np.asarray(doc[answers_page].render(scale=1).to_pil().convert("L")) < 128
    finally:
        doc.close()
    rows = ink[int(ink.shape[0] * 0.1):int(ink.shape[0] * 0.3)]
    assert rows.mean() > 0.005, "the answers are drawn"
    import io

    from tmphys.print.booklet import booklet_pdf

    for count in (1, len(classic[0]["problems"])):  # the problems end on a front (a blank back follows), or not
        data = booklet_pdf([booklet_problem(p) for p in classic[0]["problems"][:count]], "t", P.PAPERS["a4"])
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            texts = [page.extract_text() for page in pdf.pages]
        at = next(k for k, t in enumerate(texts) if t.startswith("Answers"))
        assert at % 2 == 0 and all("Problem" in t or "blank" in t for t in texts[:at]), (count, at)
        assert ("blank" in texts[at - 1]) is (at > 1 and "Problem" not in texts[at - 1])


def booklet_problem(p: dict) -> BookletProblem:
    """A problem of the booklet's --json as the booklet prints it."""
    return BookletProblem(p["number"], p["mode"], p["line"], p["answer"], tuple(tuple(c) for c in p["criteria_cards"]),
                          tuple(p["verification_cards"]), p["colour"], p["rating"])


@pytest.fixture(scope="module")
def cluster():
    """A Dask LocalCluster of two worker processes, one thread each, started once for the tests that rate on one."""
    distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install '.[cluster]'")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                  processes=True) as started:
        yield started


def test_same_seed_same_bytes_on_processes_and_on_a_dask_cluster(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                 cluster) -> None:
    args = ["--mode", "nightmare", "--verifiers", "4", "--count", "4", "--seed", "3", "--steps", str(STEPS)]
    one, pdf_one = booklet(tmp_path, capsys, "one", *args, "--workers", "1")
    two, pdf_two = booklet(tmp_path, capsys, "two", *args, "--workers", "2")
    dask, pdf_dask = booklet(tmp_path, capsys, "dask", *args, "--scheduler", cluster.scheduler_address)
    assert one == two == dask
    assert pdf_one == pdf_two == pdf_dask
    for p in one["problems"]:
        assert p["line"].startswith("N") and str(parse_problem(p["line"]).solution()) == p["answer"]


def test_a_problem_not_proven_within_its_steps_is_a_bound() -> None:
    """Held to 100 steps, one of these searches does not finish: its rating is the best strategy's value, marked not
    exact, above its lower bound; the others are proven; the same on 2 processes."""
    import random

    from tmphys.game.generate import generate

    problems = generate("nightmare", 5, "standard", random.Random(5), count=3)
    here = rate_all(problems, 100, workers=1)
    assert here == rate_all(problems, 100, workers=2)
    assert not all(r["exact"] for r in here)
    for problem, r in zip(problems, here):
        proven = rate(problem, None, 100)
        assert r["exact"] is (proven is not None)
        if proven is not None:
            assert (r["rounds"], r["questions"]) == (float(proven[0]), float(proven[1]))
        elif r["rounds"] is not None:
            low = r["lower_bound"]
            assert (low["rounds"], low["questions"]) <= (r["rounds"], r["questions"])


def test_bounds_are_said_in_the_booklet(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["--mode", "nightmare", "--verifiers", "5", "--count", "3", "--seed", "5", "--workers", "1"]
    for steps, said in (("100", "(a bound; at least"), ("10", "not rated within 10 steps")):
        data, _ = booklet(tmp_path, capsys, "bound", *args, "--steps", steps)
        assert not all(p["rating"]["exact"] for p in data["problems"])
        with pdfplumber.open(tmp_path / "bound.pdf") as doc:
            text = " ".join(page.extract_text() for page in doc.pages)
        assert said in text
        if steps == "10":  # none rated: in the drawn order, last; each with the floor its search proved
            assert [p["rating"]["rounds"] for p in data["problems"]] == [None] * 3
            for p in data["problems"]:
                low = p["rating"]["lower_bound"]
                assert f"at least {low['rounds']:.2f} rounds, {low['questions']:.2f} questions" in text


@pytest.mark.parametrize("args, said", [
    ([], "give --out FILE.pdf"),
    (["--out", "{file}/b.pdf"], "--out {file}/b.pdf"),
    (["--json", "--count", "0"], "--count"),
    (["--json", "--verifiers", "3"], "--verifiers"),
])
def test_usage_errors_are_one_line(args: list[str], said: str, capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    """Refused before any problem is rated: one line, exit 2 (--out under a file, not a folder)."""
    file = tmp_path / "file.txt"
    file.write_text("not a folder")
    args = [a.format(file=file) for a in args]
    said = said.format(file=file)
    assert run(["booklet", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="Dask is not installed: pip install '.[cluster]'")
    from tmphys.solve import runner

    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", 1)
    out = tmp_path / "b.pdf"
    assert run(["booklet", "--count", "2", "--seed", "1", "--scheduler", "tcp://127.0.0.1:9", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and not out.exists()


def test_generate_rates_the_same_on_processes_and_on_a_dask_cluster(capsys: pytest.CaptureFixture, cluster) -> None:
    """``generate --rate --steps``: the same lines one by one, on 2 processes and on a LocalCluster."""
    args = ["generate", "--mode", "extreme", "--count", "5", "--seed", "2", "--rate", "--steps", str(STEPS)]
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"]):
        assert run([*args, *extra]) == 0
        outputs.append(capsys.readouterr().out)
    assert run([*args, "--scheduler", cluster.scheduler_address]) == 0
    outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2] and outputs[0].count("optimal") == 5
    assert run(["generate", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "give it with --rate" in err and err.count("\n") == 1
