"""The solve, play and prove commands, through click's runner and the one-line error wrapper."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2
import pytest
from click.testing import CliRunner

from tmphys.cli import solve as solve_cli
from tmphys.cli.main import cli, main
from tmphys.game.book import book_set
from tmphys.game.codes import Code
from tmphys.game.problems import parse_problem
from tmphys.print import chart
from tmphys.solve import report, runner
from tmphys.solve.solver import OBJECTIVES, Deduction, Solver
from tmphys.text import plural

BOOKLET1 = ["A", "4", "447", "B", "9", "646", "C", "11", "566", "D", "14", "322"]


def run(args: list[str], input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args, input=input, catch_exceptions=False)
    return result.exit_code, result.output


def test_solve_plays_booklet_problem_1_through_the_machine() -> None:
    code, out = run(["solve", *BOOKLET1])
    assert code == 0
    assert "Round 1: propose" in out and "ask A ✗" in out
    assert "Code found: ▲2 ■4 ●1 (241) in 1 round, 1 question" in out


def test_solve_accepts_one_quoted_string() -> None:
    assert run(["solve", " ".join(BOOKLET1)])[1] == run(["solve", *BOOKLET1])[1]


def test_solve_json_fields() -> None:
    code, out = run(["solve", "--json", "1,#A46 NXF,->,2,5,8,12,P585,P441,P651,P754"])
    data = json.loads(out)
    assert code == 0 and data["code"] == "515"
    assert data["rounds"] == len(data["played"]) >= 1
    assert data["questions"] == sum(len(r["answers"]) for r in data["played"])
    assert set(data["optimal"]) == {"worst", "expected"}


def test_solve_cards_only_booklet_problem_2_optimum() -> None:
    code, out = run(["solve", "--json", "--cards", "3", "7", "10", "14"])
    opt = json.loads(out)["optimal"]
    assert code == 0
    assert opt["expected"]["rounds_fraction"] == "9/7" and opt["expected"]["questions_fraction"] == "20/7"
    assert opt["expected"]["rounds"] == pytest.approx(9 / 7)
    assert opt["worst"] == {"rounds": 2, "questions": 3, "exact": True}
    assert opt["expected"]["exact"] is True
    assert json.loads(out)["code"] is None


NIGHTMARE_HARD = "1,#I4D DOH,->,N17,N34,N36,N44,O439,O232,O550,O484"  # answer 411; takes the search long
#: Answer 233: proven in about 1,000 steps, so 100 stop the search; the greedy strategy's value takes under 100.
NIGHTMARE_QUICK_GREEDY = "4,#I44 R58,->,N14,N31,N35,N40,G546,G650,G596,G334"


def test_time_limit_stops_the_search_and_plays_on_honestly() -> None:
    code, out = run(["solve", "--json", "--time-limit", "0.001", NIGHTMARE_HARD])
    data = json.loads(out)
    assert code == 0 and data["code"] == "411" and data["played_optimally"] is False
    assert data["rounds"] == len(data["played"]) and data["questions"] >= 1
    for o in ("expected", "worst"):
        v = data["optimal"][o]
        assert v["exact"] is False
        lo = v["lower_bound"]
        if v["rounds"] is not None:  # the greedy strategy's value, when worked out in the time left
            assert (lo["rounds"], lo["questions"]) < (v["rounds"], v["questions"])
    code, out = run(["solve", "--time-limit", "0.001", NIGHTMARE_HARD])
    assert code == 0 and "Not proven optimal: search stopped at the 0.001 s limit (" in out
    assert "case: best strategy found (played): " in out and "the optimum is at least" in out
    assert "For the proof, give the search longer: --time-limit 600." in out  # said in two lines (#38)
    assert "Optimal:" not in out and "Code found: ▲4 ■1 ●1 (411)" in out


def test_a_stopped_search_reports_the_strategy_it_found() -> None:
    """Stopped part way with a start proposal searched to the end, the entry gives that strategy's value, better
    than the greedy strategy's, says so (``strategy``), and the text names where it came from."""
    p = parse_problem("430,#I49 WCO,->,N19,N27,N36,N44,G751,G670,G286,G632")
    s = Solver(Deduction(p), "expected")
    s.set_step_limit(999)  # the search stops at its 1,000th step
    v = runner.optimal_value(s, 30.0)
    greedy = s.scale(s.greedy_value(s.d.universe))  # worked out in full for the entry: read again
    assert v["exact"] is False and v["strategy"] == "search"
    assert (v["rounds_fraction"], v["questions_fraction"]) == ("255/104", "2021/312") and v["rounds"] < greedy[0]
    line = report.not_proven({"expected": v, "worst": {"exact": True}}, "after its 1,000 steps")[0]
    assert line.startswith("Not proven optimal: search stopped after its 1,000 steps; ")
    assert "expected case: best strategy found (played): 2.45 rounds, 6.48 questions on average (the best the search " \
        "finished); the optimum is at least " in line
    worst = {"exact": False, "rounds": 4, "questions": 8, "lower_bound": {"rounds": 3, "questions": 6}}
    line = report.not_proven({"expected": {"exact": True}, "worst": worst}, "at the 3 s limit")[0]
    assert "worst case: best strategy found: 4 rounds, 8 questions at worst; the optimum is at least 3 rounds, " \
        "6 questions at worst" in line and "played" not in line  # the expected strategy, proven, was played


def test_a_budget_of_steps_gives_the_same_output_on_any_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve --steps N``: the search, the greedy strategy's value and the play are held to budgets of steps, not
    time, so the output is the same bytes on a machine whose clock runs a hundred times as fast (as a loaded or slow
    one would look); a time limit's is not. Past the budget it plays on honestly, to the right code."""
    args = ["solve", "--json", "--steps", "100", NIGHTMARE_QUICK_GREEDY]
    code, out = run(args)
    data = json.loads(out)
    assert code == 0 and data["code"] == "233" and data["played_optimally"] is False
    assert not data["optimal"]["expected"]["exact"] and data["optimal"]["expected"]["strategy"] in ("search", "greedy")
    clock = [time.monotonic()]

    def slow() -> float:  # every look at the clock finds a tenth of a second gone
        clock[0] += 0.1
        return clock[0]

    monkeypatch.setattr(time, "monotonic", slow)
    assert run(args) == (0, out)
    code, text = run(["solve", "--steps", "100", NIGHTMARE_QUICK_GREEDY])
    assert code == 0 and "search stopped after its 100 steps" in text
    assert run(["solve", "--steps", "5", "--time-limit", "5", NIGHTMARE_QUICK_GREEDY])[0] == 2
    # a proven optimum's play gets a budget of its own: its rounds may open in another form than the proof searched
    code, out = run(["solve", "--json", "--steps", "12000", "430,#I49 WCO,->,N19,N27,N36,N44,G751,G670,G286,G632"])
    data = json.loads(out)
    assert code == 0 and data["optimal"]["expected"]["exact"] and data["played_optimally"] is True


def test_a_small_budget_of_steps_holds_the_greedy_value_to_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve --steps N`` works out the greedy strategy's value in a twentieth of N steps, at least 20,000, but no
    more than N: a budget of 1,000 steps was a quick look that took 20,000 greedy steps per objective (25 s on
    Nightmare 4V #7). One step is said as one."""
    asked: list[int | None] = []
    bounds = Solver.bounds

    def spy(self: Solver, seconds: float | None = None, steps: int | None = None) -> Any:
        asked.append(steps)
        return bounds(self, seconds, steps)

    monkeypatch.setattr(Solver, "bounds", spy)
    code, text = run(["solve", "--steps", "100", NIGHTMARE_QUICK_GREEDY])
    assert code == 0 and "search stopped after its 100 steps" in text
    assert asked and all(s == 100 for s in asked)
    assert "search stopped after its 1 step;" in run(["solve", "--steps", "1", NIGHTMARE_QUICK_GREEDY])[1]
    assert [solve_cli.greedy_steps(n) for n in (1, 1_000, 20_000, 400_000, 1_000_000)] == [
        1, 1_000, 20_000, 20_000, 50_000]


def test_solve_searches_the_two_objectives_side_by_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """When neither search is done in its first slice, the objective not chosen goes on in a second process: the
    values are those of the plain search, one after the other; where no second process can start, they still
    are."""
    problem = ["--nightmare", "--cards", "7", "37", "39", "42"]  # each search takes some hundreds of steps
    d = Deduction(parse_problem(" ".join(problem[2:]), nightmare=True))
    plain = {o: runner.optimal_value(Solver(d, o), 1.0) for o in OBJECTIVES}
    assert all(v["exact"] for v in plain.values())
    started: list[str] = []

    class Recording(runner.ProcessPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            started.append(args[1])
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(runner, "SOLO_SECONDS", 0.0)
    monkeypatch.setattr(runner, "ProcessPoolExecutor", Recording)
    code, out = run(["solve", "--json", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain
    code, out = run(["solve", "--json", "--objective", "worst", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain
    assert started == ["worst", "expected"]  # the objective not chosen, each time

    def no_processes(*args: Any, **kwargs: Any) -> None:
        raise OSError("no second process here")

    monkeypatch.setattr(runner, "ProcessPoolExecutor", no_processes)
    code, out = run(["solve", "--json", *problem])
    assert code == 0 and json.loads(out)["optimal"] == plain


def test_solve_tree_text_and_json() -> None:
    code, out = run(["solve", "--cards", "3", "7", "10", "14", "--tree", "text"])
    assert code == 0 and "round 1: propose" in out and "round 2: propose" in out
    code, out = run(["solve", "--cards", "3", "7", "10", "14", "--tree", "json", "--json"])
    tree = json.loads(out)["tree"]
    assert tree["round"] == 1 and "ask" in tree["then"]


def test_chart_is_one_reproducible_page(tmp_path: Path) -> None:
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        code, _ = run(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
        assert code == 0
    assert a.read_bytes() == b.read_bytes()
    pdf = pypdfium2.PdfDocument(str(a))
    assert len(pdf) == 1
    text = pdf[0].get_textpage().get_text_range()
    assert "Round 1: propose" in text and "Round 2: propose" in text and "ask C" in text
    assert not list(tmp_path.glob(".*part"))


def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["solve", "A", "4", "999"], ["solve", "A", "4", "447", "B", "9", "646"], ["solve"],
                 ["solve", "--cards", *BOOKLET1], ["prove", "241", "--cards", "3", "7", "10", "14"],
                 ["prove", "961", *BOOKLET1], ["solve", "--chart", "x.txt", *BOOKLET1]):
        with pytest.raises(SystemExit) as e:
            main(args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith("tmphys: error:") and err.count("\n") == 1, args


def test_prove_shows_each_stack() -> None:
    code, out = run(["prove", "241", *BOOKLET1])
    assert code == 0 and out.count("✓ pass") == 4 and "passes every verifier" in out
    code, out = run(["prove", "111", *BOOKLET1])
    assert code == 1 and "✗ fail" in out and "not the code" in out


# --- Ctrl-C while the second process searches --------------------------------------------------------------

LONG_NIGHTMARE = "7,#I43 BTY,->,N17,N21,N40,N43,B568,B464,B625,B341"  # neither optimum proven in a minute


def _children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _gone(pid: int) -> bool:
    """Whether a process has ended (reaped, or a zombie waiting for a parent that no longer cares)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _cpu_seconds(pid: int) -> float:
    """The processor time a process has used, its own and the kernel's for it (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _searching(worker: int) -> None:
    """Wait until the second process searches: until it has loaded the compiled engine, then used 0.3 s of processor
    time, however loaded the machine (all it does in between but search takes under 0.1 s: the rest of its imports,
    the task, the problem's deduction)."""
    deadline = time.monotonic() + 30

    def wait_for(done: Any) -> None:
        while not done():
            assert time.monotonic() < deadline and not _gone(worker), "the second process never searched"
            time.sleep(0.01)

    def engine_loaded() -> bool:
        try:
            return "/_engine." in Path(f"/proc/{worker}/maps").read_text()
        except OSError:
            return False

    wait_for(engine_loaded)
    start = _cpu_seconds(worker)
    wait_for(lambda: _cpu_seconds(worker) >= start + 0.3)


@contextlib.contextmanager
def _long_solve(tmp_path: Path, *extra: str) -> Iterator[tuple[subprocess.Popen, int]]:
    """A long ``tmphys solve`` (``extra`` its further options) in a session of its own, once its second process has
    started: (the process, the second process's pid); whatever is left of the session is killed at the end."""
    proc = subprocess.Popen([sys.executable, "-m", "tmphys", "solve", "--time-limit", "30", *extra, LONG_NIGHTMARE],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            cwd=tmp_path)  # the installed package, not a checkout's folder of that name
    try:
        deadline, worker = time.monotonic() + 20, None
        while worker is None and time.monotonic() < deadline and proc.poll() is None:
            worker = next((k for k in _children(proc.pid) if "multiprocessing.spawn" in _cmdline(k)), None)
            time.sleep(0.01)
        assert worker is not None, "the second process never started"
        yield proc, worker
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # anything left of the session, should the test fail


def _ends_within(pid: int, seconds: float) -> bool:
    """Whether the process ends within this many seconds."""
    deadline = time.monotonic() + seconds
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return _gone(pid)


def test_ctrl_c_twice_aborts_and_ends_both_processes_with_one_line(tmp_path: Path) -> None:
    """Ctrl-C twice (SIGINT to the process group) while both processes search: one line, "tmphys: aborted", exit
    130, no traceback from either process, and the second process gone."""
    with _long_solve(tmp_path) as (proc, worker):
        _searching(worker)
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 130
        assert err.decode().strip() == "tmphys: aborted" and out == b""
        assert _ends_within(worker, 10)


@pytest.mark.parametrize("to", ["the-group", "the-first-process", "the-group-as-the-second-starts"])
def test_ctrl_c_while_searching_stops_both_searches_and_keeps_what_they_found(to: str, tmp_path: Path) -> None:
    """One Ctrl-C while both processes search (SIGINT to the group, as a terminal sends it, or to the first process
    alone, which passes it on), or while the second process starts up (it is ended: it has found nothing yet): the
    searches stop where they are, and the report says what each found and the bounds still open, as at a time
    limit, then plays; exit 0, nothing on stderr, the second process gone."""
    with _long_solve(tmp_path) as (proc, worker):
        if to == "the-group-as-the-second-starts":
            time.sleep(0.1)  # mid start-up (imports)
        else:
            _searching(worker)
        asked = time.monotonic()
        if to != "the-first-process":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - asked
        said = out.decode()
        assert proc.returncode == 0 and err == b"", err
        assert "Not proven optimal: search stopped when you pressed Ctrl-C" in said, said
        assert "expected case: best strategy found" in said and "worst case: best strategy found" in said, said
        assert "Code found:" in said
        assert took < 25, took  # well before the 30 s limit: the searches did stop
        assert _ends_within(worker, 10)


def test_ctrl_c_while_searching_with_json_says_the_figures_are_what_was_found(tmp_path: Path) -> None:
    with _long_solve(tmp_path, "--json") as (proc, worker):
        _searching(worker)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0 and err == b"", err
        result = json.loads(out)
        assert result["interrupted"] is True
        for objective in ("expected", "worst"):
            entry = result["optimal"][objective]
            assert entry["exact"] is False and entry["lower_bound"]["rounds"] >= 1, entry
        assert _ends_within(worker, 10)


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_killed_solve_leaves_no_process_behind(how: str, tmp_path: Path) -> None:
    """Ended by ``kill`` (SIGTERM): the clean-up of Ctrl-C, silently, exit 143. Killed outright (SIGKILL), it can
    clean up nothing: the second process sees its parent gone and ends by itself, instead of searching on,
    orphaned, with the caller's output held open."""
    with _long_solve(tmp_path) as (proc, worker):
        _searching(worker)
        os.kill(proc.pid, getattr(signal, how))
        out, err = proc.communicate(timeout=30)  # returns once nothing holds the output open
        if how == "SIGTERM":
            assert proc.returncode == 143 and out == b"" and err == b""
        else:
            assert proc.returncode == -signal.SIGKILL
        assert _ends_within(worker, 5)


def test_the_second_process_takes_its_search_while_this_one_searches() -> None:
    """``start_apart`` returns at once, and the task reaches the second process while a search runs here (the
    engine lets go of the interpreter, so the threads that hand it over run): a search here that would run for a
    minute is ended by a signal a thread sends as the second process's search begins."""

    class HandedOver(Exception):
        """The second process began its search while this one searched."""

    def handed_over(signum: int, frame: object) -> None:
        raise HandedOver

    search = Solver(Deduction(parse_problem(LONG_NIGHTMARE)), "worst")
    search.set_time_limit(60)
    pool, apart, started = runner.start_apart(parse_problem("7 37 39 42", nightmare=True), "worst",
                                              time.time() + 30, 1.0)
    searching = threading.Event()

    def signal_as_it_starts() -> None:
        if started.wait(60) and searching.is_set():
            os.kill(os.getpid(), signal.SIGUSR1)

    watch = threading.Thread(target=signal_as_it_starts)
    before = signal.signal(signal.SIGUSR1, handed_over)
    try:
        assert not started.is_set()  # not waited for: starting a process takes a good part of a second
        watch.start()
        searching.set()
        with pytest.raises(HandedOver):
            search.optimum()
        assert started.is_set() and not search.stopped  # ended by the signal, not by its time limit
        assert apart.result(timeout=60)["exact"] is True
    finally:
        searching.clear()
        if watch.ident is not None:
            watch.join()  # the signal, if any, sent: the handler it finds is this test's
        signal.signal(signal.SIGUSR1, before)
        pool.shutdown(wait=True)


# --- output ---------------------------------------------------------------------------------------------------

def test_plural_reads_right() -> None:
    assert plural(1, "round") == "1 round" and plural(2, "round") == "2 rounds"
    assert plural(0, "question") == "0 questions"
    assert plural(Fraction(1), "round") == "1 round"
    assert plural(Fraction(9, 7), "round") == "9/7 rounds"
    assert plural("9/7", "round") == "9/7 rounds"


def test_solve_lists_the_possible_codes() -> None:
    code, out = run(["solve", "--cards", "3", "7", "10", "14"])
    assert code == 0 and "7 hidden assignments; 7 codes possible: 122 132 152 431 432 435 534\n" in out
    codes = [Code.from_index(i) for i in range(25)]
    assert report.codes_possible(codes[:20]) == "20 codes possible: " + " ".join(map(str, codes[:20]))
    assert report.codes_possible(codes) == "25 codes possible: " + " ".join(map(str, codes[:10])) + " …"
    assert report.codes_possible(codes[:1]) == "1 code possible: 111"


def test_tree_json_alone_on_stdout() -> None:
    result = CliRunner().invoke(cli, ["solve", "--cards", "3", "7", "10", "14", "--tree", "json"])
    assert result.exit_code == 0
    tree = json.loads(result.stdout)
    assert tree["round"] == 1 and tree["codes"] == 7
    assert "Problem: Classic" in result.stderr and "Optimal:" in result.stderr


@pytest.mark.parametrize("seconds", ["nan", "inf", "-inf", "-1", "0"])
def test_time_limit_must_be_finite_and_positive(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("solve", "play"):
        with pytest.raises(SystemExit) as e:
            main([command, "--time-limit", seconds, "--cards", "3", "7", "10", "14"])
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.count("\n") == 1
        assert err.startswith("tmphys: error: Invalid value for '--time-limit': want a number of seconds above 0")


# --- the chart's path, checked before the search ---------------------------------------------------------------

def _chart_paths(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "plain").write_text("a file")
    (tmp_path / "folder.pdf").mkdir()
    os.mkfifo(tmp_path / "pipe.pdf")
    return {"not a directory, so nothing can be written under it": tmp_path / "plain" / "x.pdf",
            "is a directory": tmp_path / "folder.pdf", "is a FIFO, not a regular file": tmp_path / "pipe.pdf",
            "/proc: cannot create files here": Path("/proc/x.pdf")}


def test_unwritable_chart_is_refused_before_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    def no_search(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("searched before checking the chart's path")

    monkeypatch.setattr(solve_cli, "optimal_values", no_search)
    for why, path in _chart_paths(tmp_path).items():
        with pytest.raises(SystemExit) as e:
            main(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith("tmphys: error:") and err.count("\n") == 1, path
        assert why in err and str(path) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.pdf", "pipe.pdf", "plain"]  # no probe left


def test_chart_write_failing_after_the_search_is_one_line_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A path that passed the checks but whose write fails (a full disk): as a build's, one line and exit 1."""
    import errno

    def full(path: Path, *args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(chart, "write_chart", full)
    path = tmp_path / "plan.pdf"
    with pytest.raises(SystemExit) as e:
        main(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
    err = capsys.readouterr().err
    assert e.value.code == 1 and err == f"tmphys: error: cannot write --chart {str(path)!r}: No space left on device\n"


def test_chart_goes_into_an_existing_folder_only(tmp_path: Path) -> None:
    """As every file tmphys writes, a chart's folder must exist (a typo made a tree of folders); none is made."""
    path = tmp_path / "charts" / "new" / "plan.pdf"
    code, _ = run(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
    assert code == 2 and not (tmp_path / "charts").exists()
    path.parent.mkdir(parents=True)
    code, _ = run(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
    assert code == 0 and path.read_bytes().startswith(b"%PDF")


def test_chart_overwrites_a_file_atomically(tmp_path: Path) -> None:
    path = tmp_path / "plan.pdf"
    path.write_text("old")
    code, out = run(["solve", "--cards", "3", "7", "10", "14", "--chart", str(path)])
    assert code == 0 and f"Wrote {path}" in out and path.read_bytes().startswith(b"%PDF")
    assert [p.name for p in tmp_path.iterdir()] == ["plan.pdf"]


# --- the chart fits its pages ----------------------------------------------------------------------------------

def _inside_the_margins(pdf_path: Path) -> list[Any]:
    """Every page of a chart, after checking that all its text and drawing lie inside the page's margins, that no
    line of the tree is set under its smallest size, and no character at all (notes, a code's digits) under the
    smallest readable type."""
    pages = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            objects = page.chars + page.curves + page.rects + page.lines
            assert objects
            for o in objects:
                assert chart.MARGIN - 0.5 <= o["x0"] <= o["x1"] <= page.width - chart.MARGIN + 0.5, o
                assert chart.MARGIN - 0.5 <= o["top"] <= o["bottom"] <= page.height - chart.MARGIN + 0.5, o
            assert min(ch["size"] for ch in page.chars) >= chart.SMALLEST - 1e-6
            words = page.extract_words(extra_attrs=["size"])
            for w in words:
                if w["text"] in ("ask", "code", "Round"):
                    assert w["size"] >= chart.MIN_FONT - 1e-6, w
            pages.append(words)
    return pages


def test_chart_of_a_big_tree_fits_the_page_on_several_pages(tmp_path: Path) -> None:
    """Nightmare 4V #1: its tree (hundreds of lines) overran the page in microscopic type; now readable, inside
    the margins, over more pages, each numbered, with the ✗ branches that go on elsewhere pointed to."""
    line = book_set("NightmareHard4V")[0].line
    path = tmp_path / "n4.pdf"
    result = CliRunner().invoke(cli, ["solve", line, "--time-limit", "20", "--json", "--tree", "json",
                                      "--chart", str(path)])
    assert result.exit_code == 0
    tree = json.loads(result.stdout)["tree"]
    pages = _inside_the_margins(path)
    assert len(pages) > 1
    words = [w["text"] for page in pages for w in page]
    lines = chart.outline(tree)
    assert words.count("Round") == sum(1 for line in lines if "round" in line.node)
    # each code reached, and the legend's "stop when a code is reached" on each page
    assert words.count("code") == sum(1 for line in lines if "code" in line.node) + len(pages)
    assert f"1 of {len(pages)}" in " ".join(words[:12]) and "see" in words


def _deep_tree(rounds: int, round_no: int = 1, code: int = 0) -> dict[str, Any]:
    """A made-up decision tree: every round asks A, then B on ✓ and C on ✗; each branch goes on for ``rounds``."""
    def leaf(k: int) -> dict[str, Any]:
        return {"code": str(Code.from_index(k % 125))}

    def next_round(k: int) -> dict[str, Any]:
        return _deep_tree(rounds - 1, round_no + 1, k) if rounds > 1 else leaf(k)

    return {"round": round_no, "proposal": str(Code.from_index(code % 125)), "codes": 2 ** rounds,
            "assignments": 2 ** rounds, "then": {
                "ask": "A", "pass": {"ask": "B", "pass": next_round(4 * code + 1), "fail": leaf(4 * code + 2)},
                "fail": {"ask": "C", "pass": next_round(4 * code + 3), "fail": leaf(4 * code + 4)}}}


LONG_PROBLEM = "1,#I6X WYZ,->,N2,N9,N17,N22,N31,N45,P540,P597,P476,P335,P585,P441"


def test_chart_header_says_when_no_value_was_worked_out() -> None:
    """A search stopped before any strategy was known in full: the header says so in words, as the text report does,
    not with question marks; a value known for one objective is given."""
    problem = parse_problem("A 4 447 B 9 646 C 11 566 D 14 322")
    unknown = {"rounds": None, "questions": None, "exact": False}
    optimal = {"expected": {**unknown, "rounds_fraction": None, "questions_fraction": None},
               "worst": {"rounds": 4, "questions": 9, "exact": False}}
    head = " ".join(chart._header(problem, "expected", optimal, 10_000))
    assert "Best found (not proven optimal): on average not worked out within the limit; 4 rounds, 9 questions at " \
           "worst." in head and "?" not in head
    optimal["worst"] = unknown
    optimal["expected"] = {"rounds": 2.5, "questions": 6.5, "rounds_fraction": "5/2", "questions_fraction": "13/2",
                           "exact": False}
    head = " ".join(chart._header(problem, "expected", optimal, 10_000))
    assert "5/2 rounds, 13/2 questions on average; at worst not worked out within the limit." in head


@pytest.mark.parametrize("rounds", [6, 30], ids=["many-lines", "too-deep-for-a-column"])
def test_chart_keeps_every_line_inside_the_page(rounds: int, tmp_path: Path) -> None:
    """A made-up tree of 6 rounds (hundreds of lines, over several pages), and one so deep that one line is wider
    than the page at the smallest size: every mark inside the margins, every round and code drawn, the same bytes
    twice."""
    problem = parse_problem("A 4 447 B 9 646 C 11 566 D 14 322")
    optimal = {"expected": {"rounds": 9.9, "questions": 9.9, "rounds_fraction": "123456789/987654321",
                            "questions_fraction": "123456789/987654321", "exact": False},
               "worst": {"rounds": None, "questions": None, "exact": False}}

    class Long:
        def describe(self) -> str:
            return problem.describe() + "; " + LONG_PROBLEM * 3

    tree = _deep_tree(rounds) if rounds < 10 else _chain(rounds)
    pdf = chart.render_chart(Long(), tree, "expected", optimal)  # type: ignore[arg-type]
    assert pdf == chart.render_chart(Long(), tree, "expected", optimal)  # type: ignore[arg-type]
    path = tmp_path / "chart.pdf"
    path.write_bytes(pdf)
    lines = chart.outline(tree)
    if rounds < 10:
        pages = _inside_the_margins(path)
        assert len(pages) > 2
    else:
        with pdfplumber.open(path) as doc:
            for page in doc.pages:
                for o in page.chars + page.curves + page.rects + page.lines:
                    assert chart.MARGIN - 0.5 <= o["x0"] <= o["x1"] <= page.width - chart.MARGIN + 0.5, o
            pages = [page.extract_words() for page in doc.pages]
    words = [w["text"] for page in pages for w in page]
    assert words.count("Round") == sum(1 for line in lines if "round" in line.node)
    assert words.count("code") == sum(1 for line in lines if "code" in line.node) + len(pages)  # + the legend's


def _chain(rounds: int) -> dict[str, Any]:
    """A made-up tree that goes ``rounds`` rounds deep along its ✗ branches."""
    node: dict[str, Any] = {"code": "111"}
    for r in range(rounds, 0, -1):
        node = {"round": r, "proposal": "123", "codes": rounds - r + 2, "assignments": rounds - r + 2,
                "then": {"ask": "A", "pass": {"code": "222"}, "fail": node}}
    return node


def test_chart_plan_prefers_one_page_and_larger_type() -> None:
    small = chart.plan_chart([20.0] * 10, 500, 700)
    assert (small.size, small.pages) == (chart.MAX_FONT, 1)
    full = chart.plan_chart([20.0] * 200, 500, 700)
    assert full.pages == 1 and chart.MIN_FONT <= full.size < chart.MAX_FONT
    assert max(left for _, _, left in full.columns) + 20.0 * full.size <= 500
    many = chart.plan_chart([20.0] * 5000, 500, 700)
    assert many.size == chart.MIN_FONT and many.pages > 1
    assert all(left + 20.0 * many.size <= 500 for _, _, left in many.columns)


# --- prove -----------------------------------------------------------------------------------------------------

def _example_args(words: list[str]) -> list[str]:
    """A help example's arguments, without the remark in brackets after them."""
    cut = next((i for i, w in enumerate(words) if w.startswith("(")), len(words))
    return words[:cut]


def test_every_example_in_prove_help_works() -> None:
    code, out = run(["prove", "--help"])
    examples = [shlex.split(line.strip())[1:] for line in out.splitlines() if line.strip().startswith("tmphys ")]
    assert len(examples) >= 4 and any("--nightmare" in e for e in examples)
    for args in examples:
        args = _example_args(args)
        code, text = run(args)
        assert code == 0 and "passes every verifier" in text, (args, text)
    assert "--cards" not in out and "--extreme" not in out


def test_every_example_in_solve_help_works() -> None:
    code, out = run(["solve", "--help"])
    examples = [shlex.split(line.strip())[1:] for line in out.splitlines() if line.strip().startswith("tmphys ")]
    assert len(examples) == 5
    for args in examples:
        args = _example_args(args)
        code, text = run([*args, "--time-limit", "10"])
        assert code == 0 and "codes possible" in text, (args, text)


def test_prove_asks_for_verification_cards(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["prove", "241"], ["prove", "241", "--cards", "3", "7", "10", "14"], ["prove", "241", "3", "7",
                                                                                      "10", "14"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.count("\n") == 1, args
        assert "verification card" in err and "--cards 3" not in err, args


def test_a_broken_layout_is_named_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("x = 1\n")
    result = CliRunner().invoke(cli, ["solve", "--layout", str(bad), *BOOKLET1])
    assert result.exit_code == 2
    message = result.output.strip().splitlines()[-1]
    assert message.count("bad.toml") == 1 and "unknown key 'x'" in message


def test_a_chart_after_a_booklet_in_one_process() -> None:
    """The booklet and the chart set their text in the same font, registered with reportlab once per process for
    both: a chart made after a booklet, in a fresh process (reportlab's font registry is per process), is whole."""
    script = ("from tmphys.art import params as P\n"
              "from tmphys.print.booklet import booklet_pdf\n"
              "from tmphys.print.chart import render_chart\n"
              "from tmphys.game.problems import parse_problem\n"
              "from tmphys.solve.deduction import Deduction\n"
              "from tmphys.solve.solver import Solver\n"
              "booklet_pdf([], 'no problems', P.PAPERS['a4'])\n"
              "problem = parse_problem('3 7 10 14')\n"
              "pdf = render_chart(problem, Solver(Deduction(problem), 'expected').tree(), 'expected')\n"
              "print(pdf[:5].decode())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "%PDF-\n", done.stderr[-2000:]
