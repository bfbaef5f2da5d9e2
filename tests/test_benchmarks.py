"""The benchmark script over the official problems (benchmarks/solve_official.py): it reports a set, and a worker
that dies stops the run with a message instead of leaving it waiting."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "solve_official.py"


def _load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script as a module, importable by name for the duration of the test (its workers unpickle its
    functions by name)."""
    spec = importlib.util.spec_from_file_location("solve_official", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "solve_official", module)
    spec.loader.exec_module(module)
    return module


def test_benchmark_reports_a_sample_of_a_set(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    bench = _load(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["solve_official.py", "--sample", "4", "--timeout", "20", "ClassicEasy4V"])
    bench.main()
    out = capsys.readouterr().out
    assert "ClassicEasy4V: right code 4/4" in out and "both optima proven 4/4" in out
    assert "not solved" not in out


def _die(task: object) -> None:
    os._exit(3)  # as a segmentation fault in the engine would: no exception, no result


def test_benchmark_stops_with_a_message_when_a_worker_dies(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _load(monkeypatch)
    monkeypatch.setattr(bench, "solve_one", _die)
    monkeypatch.setattr(sys, "argv", ["solve_official.py", "--sample", "2", "ClassicEasy4V"])

    def waited(signum: int, frame: object) -> None:
        raise TimeoutError("the run waited for its dead worker")

    before = signal.signal(signal.SIGALRM, waited)
    signal.alarm(60)
    try:
        with pytest.raises(SystemExit) as stop:
            bench.main()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert "worker process died" in str(stop.value.code)


def test_generate_benchmark_compares_generated_problems_with_the_book(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    script = SCRIPT.parent / "generate.py"
    spec = importlib.util.spec_from_file_location("generate_benchmark", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(sys, "argv", ["generate.py", "--sample", "3", "--timeout", "5", "ClassicEasy4V"])
    module.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ClassicEasy4V:"
    assert out[1].startswith("  generated: 3 problems; cards fix the code in 0,") and "3 rated within 5 s" in out[1]
    assert out[2].startswith("  problem book: 3 problems;") and "3 rated within 5 s" in out[2]
