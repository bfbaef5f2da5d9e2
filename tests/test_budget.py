"""One memory budget per command (tmphys/solve/budget.py, ``--memory``): the shares of its processes and engines add up
to no more than the budget, sizes are read or refused in one line, and the runner hands each worker its share.
(What the processes really take is measured by benchmarks/bounds.py, not here.)"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_booklet import run

from tmphys.game.problems import parse_problem
from tmphys.solve import budget, runner
from tmphys.solve.budget import (
    GB,
    LEAST_BYTES,
    MB,
    MEMO_OVERHEAD,
    MOST_ASSIGNMENTS,
    RATING_BYTES,
    Share,
    command_budget,
    parse_size,
    process_bytes,
    rating_plan,
    solve_plan,
    worker_share,
)
from tmphys.solve.engine import memo_share

BUDGETS = st.integers(LEAST_BYTES, 10**13)


def _memos_fit(share: Share) -> None:
    """However much one engine's memo holds (up to its limit), the limit the other gets leaves their sum within
    ``share.memo``; and the whole process within its share."""
    config = share.config()
    assert share.engines * (share.tables + share.greedy) + share.memo * MEMO_OVERHEAD <= share.rest + 1
    assert share.rest <= share.process - share.fixed
    assert config.table_bytes == share.tables and config.greedy_bytes == share.greedy
    assert 0 < config.memo_least <= config.memo_bytes <= share.memo
    if share.engines == 1:
        assert config.memo_bytes == share.memo
        return
    for held in (0, 1, config.memo_least, share.memo // 2, config.memo_bytes - config.memo_least,
                 config.memo_bytes):
        other = SimpleNamespace(memo_held=lambda held=held: held)
        assert held + memo_share(object(), [other], config) <= share.memo


@given(BUDGETS, st.sampled_from([1, 2]), st.integers(1, MOST_ASSIGNMENTS))
def test_a_process_share_adds_up(total: int, engines: int, assignments: int) -> None:
    share = Share(total, engines, assignments)
    if share.rest > 0:
        assert share.spent() <= total
        _memos_fit(share)


@given(BUDGETS, st.booleans(), st.integers(1, MOST_ASSIGNMENTS))
def test_solve_shares_add_up_to_its_budget(total: int, apart: bool, assignments: int) -> None:
    """``solve``: its own process (both objectives' engines) and the second one it may start share the budget."""
    plan = solve_plan(total, apart, assignments)
    assert sum(p.process for p in plan.processes) == total
    assert (plan.apart is not None) is (apart and total >= 2 * LEAST_BYTES) and plan.here.engines == 2
    for share in plan.processes:
        assert share.spent() <= share.process


def test_a_process_costs_what_its_problem_needs() -> None:
    """The fixed cost grows with the hidden assignments and the engines; a usual Nightmare problem of the book (1,440
    assignments) leaves ``solve --memory 1G`` most of the gigabyte for its memos, the largest still its 300 MB."""
    assert process_bytes(1_440, 1) < process_bytes(1_440, 2) < process_bytes(31_680, 2)
    assert process_bytes() == process_bytes(MOST_ASSIGNMENTS, 1) < 350 * MB
    usual, largest = solve_plan(1 * GB, False, 1_440).here, solve_plan(1 * GB, False, MOST_ASSIGNMENTS).here
    assert usual.memo >= 450 * MB and usual.spent() <= 1 * GB
    assert largest.memo >= 300 * MB and largest.spent() <= 1 * GB
    assert usual.tables <= 1_440 * 720 * 4  # no more than every relabelling table takes


@given(BUDGETS, st.integers(1, 1024), st.integers(1, 10_000))
def test_rating_workers_fit_the_budget(total: int, workers: int, tasks: int) -> None:
    """As many rating workers as fit (at least one), each with the one share a rating gets everywhere unless the
    whole budget is less; a line says so when there are fewer than asked."""
    plan = rating_plan(total, workers, tasks)
    assert 1 <= plan.workers <= min(workers, tasks)
    assert plan.workers * plan.share.process <= total
    assert plan.share.process == min(RATING_BYTES, total)
    assert (plan.note is not None) == (plan.workers < min(workers, tasks))
    if plan.note:
        assert f"{plan.workers} of {min(workers, tasks)} workers" in plan.note and "\n" not in plan.note


def test_the_default_budget_fits_two_rating_workers_of_the_same_share() -> None:
    plan = rating_plan(2 * GB, 8, 100)
    assert plan.workers == 2 and plan.share == Share(RATING_BYTES)
    assert "2 of 8 workers" in (plan.note or "") and "--memory 8G for 8" in (plan.note or "")
    assert rating_plan(2 * GB, 2, 100).note is None


@pytest.mark.parametrize("limit, threads, share", [
    (4 * GB, 1, RATING_BYTES),  # a roomy worker: a rating's share, as on this machine
    (1200 * MB, 2, 600 * MB),  # two tasks side by side in one worker share its limit
    (None, 4, RATING_BYTES),  # no limit set
    (0, 1, RATING_BYTES),
])
def test_a_dask_worker_shares_its_own_memory_limit(limit: int | None, threads: int, share: int) -> None:
    worker = SimpleNamespace(memory_manager=SimpleNamespace(memory_limit=limit),
                             state=SimpleNamespace(nthreads=threads))
    assert worker_share(worker) == Share(share)


@pytest.mark.parametrize("text, n", [
    ("2G", 2 * GB), ("2g", 2 * GB), ("2 GB", 2 * GB), ("1500M", 1500 * MB), ("1500MB", 1500 * MB),
    ("512MiB", 512 * 2**20), ("512mi", 512 * 2**20), ("1.5G", 1500 * MB), ("3GiB", 3 * 2**30),
    ("2000000000", 2 * GB), ("700000k", 700 * MB), ("1T", 10**12),
])
def test_sizes_are_read(text: str, n: int) -> None:
    assert parse_size(text) == n


@given(st.integers(0, 10**12), st.sampled_from(["", "k", "M", "G", "KiB", "MiB", "GiB", "kB", "MB", "gb"]))
def test_any_whole_size_reads_back(n: int, unit: str) -> None:
    scale = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "ki": 2**10, "mi": 2**20, "gi": 2**30}
    assert parse_size(f"{n}{unit}") == n * scale[unit.lower().removesuffix("b")]


@given(st.text(max_size=30))
def test_any_text_is_a_size_or_refused_by_name(text: str) -> None:
    try:
        assert parse_size(text) >= 0
    except ValueError as e:
        assert "is not a size" in str(e)


@pytest.mark.parametrize("text", ["", "G", "2X", "-1G", "2 G B", "1e9", "2GBB", "٣G", "1.5", "2,000M"])
def test_what_is_not_a_size_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a size"):
        parse_size(text)


@pytest.mark.parametrize("args, said", [
    (["solve", "--cards", "3", "7", "10", "14", "--memory", "lots"], "'lots' is not a size"),
    (["play", "--cards", "3", "7", "10", "14", "--memory", "100M"], "100 MB is less than a search needs"),
    (["booklet", "--json", "--memory", "9999T"], "more than any machine has"),
    (["generate", "--memory", "4G"], "--memory is what the ratings may take: give it with --rate"),
])
def test_a_bad_memory_option_is_one_usage_line(args: list[str], said: str, capsys: pytest.CaptureFixture) -> None:
    assert run(args) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_budget_is_lowered_to_the_memory_available(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "available_bytes", lambda: 1200 * MB)
    total, note = command_budget(None)
    assert total == 1200 * MB and note is not None and "1.2 GB of memory available" in note
    assert command_budget(1 * GB) == (1 * GB, None)
    monkeypatch.setattr(budget, "available_bytes", lambda: 100 * MB)
    assert command_budget(None)[0] == LEAST_BYTES  # a search needs that much to work at all
    monkeypatch.setattr(budget, "available_bytes", lambda: None)
    assert command_budget(None) == (2 * GB, None)


def test_the_runner_hands_each_rating_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each task carries its worker's EngineConfig: held to the share, not to EngineConfig's defaults."""
    seen = []
    monkeypatch.setattr(runner, "rating", lambda *task: seen.append(task[-1]) or {})
    share = Share(600 * MB)
    problems = [parse_problem("3 7 10 14"), parse_problem("3 7 10 14")]
    runner.rate_all(problems, 100, workers=1, share=share)
    assert seen == [share.config()] * 2 and seen[0].memo_bytes < 600 * MB


def test_fewer_workers_are_said_in_one_line(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "available_bytes", lambda: None)
    args = ["booklet", "--difficulty", "easy", "--count", "3", "--seed", "1", "--steps", "2000", "--json"]
    assert run([*args, "--workers", "3", "--memory", "1G"]) == 0
    out = capsys.readouterr()
    notes = [line for line in out.err.splitlines() if line.startswith("tmphys:")]
    assert notes == ["tmphys: 1 of 3 workers rate side by side: each may take 1 GB of the 1 GB memory budget "
                     "(--memory 3G for 3)"]
    assert run([*args, "--workers", "1"]) == 0
    assert capsys.readouterr().out == out.out
