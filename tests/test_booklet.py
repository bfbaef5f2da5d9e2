"""``tmphys booklet``: generated problems re-solved, ratings re-rated, the PDF's text read back, same bytes however
the ratings were made (here, on 2 processes, on a Dask LocalCluster)."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from tmphys.cli.main import main
from tmphys.game.problems import parse_problem
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
    """The PDF's text, read back, holds every problem's number, rating and line (to copy into tmphys play), each
    answer upside down in the answers section after the last problem, in an embedded subset of the cards' font."""
    data, path = classic
    with pdfplumber.open(path) as pdf:
        pages = [page.extract_text() for page in pdf.pages]
        fonts = {c["fontname"] for page in pdf.pages for c in page.chars}
        answers_page = next(k for k, text in enumerate(pages) if text.startswith("Answers"))
        upside = [c for page in pdf.pages[answers_page:] for c in page.chars if not c["upright"] or
                  c["matrix"][0] < 0]
        rows: dict[int, list] = {}
        for c in upside:
            rows.setdefault(round(c["top"]), []).append(c)
        read = " ".join("".join(c["text"] for c in sorted(row, key=lambda c: -c["x0"]))
                        for _, row in sorted(rows.items(), key=lambda kv: -kv[0]))
    text = "\n".join(pages[:answers_page])
    assert fonts and all("+" in f and "Vera" in f for f in fonts), fonts  # subset-tagged: embedded
    for p in data["problems"]:
        assert f"Problem {p['number']}" in text
        assert f"tmphys play {p['line']}" in text
        assert f"{p['rating']['rounds']:.2f} rounds, {p['rating']['questions']:.2f} questions" in text
        assert f"Problem {p['number']}: {p['answer']}" in read
    assert "Answers" not in text


def test_same_seed_same_bytes_on_processes_and_on_a_dask_cluster(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture) -> None:
    distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install '.[cluster]'")
    args = ["--mode", "nightmare", "--verifiers", "4", "--count", "4", "--seed", "3", "--steps", str(STEPS)]
    one, pdf_one = booklet(tmp_path, capsys, "one", *args, "--workers", "1")
    two, pdf_two = booklet(tmp_path, capsys, "two", *args, "--workers", "2")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                  processes=True) as cluster:
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


def test_generate_rates_the_same_on_processes_and_on_a_dask_cluster(capsys: pytest.CaptureFixture) -> None:
    """``generate --rate --steps``: the same lines one by one, on 2 processes and on a LocalCluster."""
    distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install '.[cluster]'")
    args = ["generate", "--mode", "extreme", "--count", "5", "--seed", "2", "--rate", "--steps", str(STEPS)]
    outputs = []
    for extra in (["--workers", "1"], ["--workers", "2"]):
        assert run([*args, *extra]) == 0
        outputs.append(capsys.readouterr().out)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster:
        assert run([*args, "--scheduler", cluster.scheduler_address]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2] and outputs[0].count("optimal") == 5
    assert run(["generate", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "give it with --rate" in err and err.count("\n") == 1
