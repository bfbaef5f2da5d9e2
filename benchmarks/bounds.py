"""The peak memory of the worst inputs tmphys accepts, each command's whole process tree (#38: no accepted input
needs more than about 2 GB; #46: no command's processes together pass its memory budget, 2 GB by default).

Run: python benchmarks/bounds.py [--quick] [--only drawing|search|page]. Prints, for each case, the command, its exit
status, its wall time and its peak memory: the most its process tree held at once (the resident memory of the
command and every process it started, summed, sampled every 20 ms: shared pages are counted once per process, so
the figure is an upper bound) and, beside it, the largest single process's (``ru_maxrss``). The drawing cases: the
pixel check at the finest resolution on the shipped layout and on the largest card a layout may have (its finest
accepted resolution), a shifted stack at the finest resolution, a build with the most alignment marks and copies,
and ``generate`` in Nightmare with 6 verifiers at two counts (memory that does not grow with --count). Refused
inputs (the same card at --resolution 50) are shown refused at once, in a few megabytes more than Python's start.
The search cases, each against its budget (``search_cases``): ``solve`` of the book's largest Nightmare problem (6
verifiers, 31,680 hidden assignments) on two processes, ``play`` of it, and ratings of hard Nightmare 6-verifier
problems (``generate --rate`` by time, ``booklet`` by steps) asked for on 8 workers: about an hour in all (--quick:
ten minutes, the memos mostly short of full). The page case: the table app's best move on the book's worst
Nightmare problems, searched in headless Chromium as long as the page lets it (15 s, then Think longer's 120 s):
the search worker's WebAssembly memory against the tab's 512 MiB, which the module cannot pass.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import psutil
import tomlkit

#: What the bound of a drawing command is: about 2 GB (in kilobytes, as ``ru_maxrss`` counts on Linux).
BOUND_KB = 2 * 1024 * 1024
GB = 1_000_000_000
#: How often the process tree's memory is sampled (s).
SAMPLE_SECONDS = 0.02


def tree_bytes(root: psutil.Process) -> int:
    """The resident memory of a process and all its descendants, summed (bytes; 0 once it has ended)."""
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for p in processes:
        try:
            total += p.memory_info().rss
        except psutil.Error:  # ended meanwhile
            pass
    return total


def watch(process: subprocess.Popen) -> tuple[int, int, Any]:
    """Wait for ``process``, its tree's memory sampled every ``SAMPLE_SECONDS``: the most it held (bytes), its wait
    status and the kernel's count of its resources (``ru_maxrss``: its own peak or its largest reaped process's)."""
    root, most = psutil.Process(process.pid), 0
    while True:
        most = max(most, tree_bytes(root))
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            return most, status, usage
        time.sleep(SAMPLE_SECONDS)


def peak(argv: list[str], cwd: Path, stdin: int | None = subprocess.DEVNULL) -> tuple[int, float, int, int, str]:
    """Run ``python -m tmphys ARGV``: its exit status, wall time (s), the peak of its process tree's memory and the
    largest single process's peak (KB), and the last line it printed on stderr."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([sys.executable, "-m", "tmphys", *argv], cwd=cwd, stdin=stdin,
                                   stdout=subprocess.DEVNULL, stderr=err)
        most, status, usage = watch(process)
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = [line for line in err.read().splitlines() if line.startswith("tmphys:")]
    return process.returncode, time.perf_counter() - started, most // 1024, usage.ru_maxrss, " | ".join(lines)


def card_layout(folder: Path, name: str, width: float, height: float, pitch: tuple[float, float],
                marks: int = 0, grid: tuple[int, int] | None = None, hole: float | None = None) -> Path:
    """A layout file of the classic grid (or a ``grid`` of rows × columns, the codes first, then decoys) spread over
    a ``width`` × ``height`` mm card, with ``marks`` alignment marks along its top (16 is the most a layout may
    have)."""
    raw = tomllib.loads(resources.files("tmphys.layouts").joinpath("classic.toml").read_text("utf-8"))
    raw["layout"]["name"] = name
    raw["card"].update(width=width, height=height)
    raw["grid"].update(pitch_x=pitch[0], pitch_y=pitch[1])
    if grid is not None:
        rows, columns = grid
        raw["grid"]["rows"] = [[0, columns]] * rows
        tokens = [f"{b}{y}{p}" for b in range(1, 6) for y in range(1, 6) for p in range(1, 6)]
        tokens += ["..."] * (rows * columns - len(tokens))
        raw["placement"]["cells"] = "\n" + "\n".join(" ".join(tokens[k:k + columns])
                                                      for k in range(0, len(tokens), columns)) + "\n"
    if hole is not None:
        raw["hole"].update(width=hole, height=hole, corner_radius=0.0)
    raw["alignment_marks"] = [{"shape": "circle", "x": 4.0 + 10.0 * k, "y": 4.0, "size": 2.0} for k in range(marks)]
    path = folder / f"{name}.toml"
    path.write_text(tomlkit.dumps(raw), "utf-8")
    return path


def search_cases(quick: bool) -> list[tuple[list[str], int]]:
    """The searching commands at their worst, each with its budget (bytes): the book's largest Nightmare problem
    solved (two processes) and played (one) long enough for their memos to fill their shares, and again within 1 GB,
    where they fill sooner; hard Nightmare 6-verifier problems (seed 28 draws four of 7,200 to 18,720 hidden
    assignments) rated on the 8 workers asked for, with the default budget and with --memory 4G."""
    seconds = "60" if quick else "600"
    steps = ["--steps", "100000"] if quick else []  # else the booklet's default, a million
    draw = ["--mode", "nightmare", "--verifiers", "6", "--difficulty", "hard", "--seed", "28"]
    default = 2 * GB
    return [
        (["solve", "#I63 HNW F", "--time-limit", seconds], default),
        (["solve", "#I63 HNW F", "--time-limit", seconds, "--memory", "1G"], 1 * GB),
        (["play", "#I63 HNW F", "--time-limit", str(int(seconds) // 2)], default),  # two moves, then no input
        (["generate", *draw, "--count", "2", "--rate", "--time-limit", seconds, "--workers", "8"], default),
        (["booklet", *draw, "--count", "2", *steps, "--workers", "8", "--json"], default),
        (["booklet", *draw, "--count", "4", *steps, "--workers", "8", "--json", "--memory", "4G"], 4 * GB),
    ]


def main() -> None:
    """Run every case and print its figures, and whether each stayed under its bound."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller counts and time limits")
    parser.add_argument("--only", choices=["drawing", "search", "page"], default=None, help="one kind of case only")
    args = parser.parse_args()
    counts = (5, 20) if args.quick else (20, 200)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        big = card_layout(folder, "largest", 290.0, 290.0, (21.0, 21.0))  # the largest card a layout may have
        marked = card_layout(folder, "a4-marked", 100.0, 150.0, (9.0, 10.0), marks=16)  # large, A4 takes it
        dense = card_layout(folder, "dense", 100.0, 150.0, (3.4, 3.2), grid=(40, 25), hole=1.5)  # 1,000 cells
        cases = [
            ["check", "--resolution", "50"],
            ["check", "--layout", str(big), "--resolution", "15.3"],
            ["check", "--layout", str(big), "--resolution", "50"],  # refused: says what fits
            ["stack", "241", "--verifier", "447", "--shift", "blue=0.3,0.2,0.5", "--resolution", "50"],
            ["stack", "241", "--verifier", "447", "--layout", str(big), "--shift", "blue=1,0", "--resolution", "15.3"],
            ["build", "--layout", str(marked), "--copies", "20", "--out", str(folder / "build")],
            ["build", "--layout", str(dense), "--copies", "20", "--out", str(folder / "dense")],
            ["check", "--layout", str(dense), "--resolution", "37"],
            *(["generate", "--mode", "nightmare", "--verifiers", "6", "--difficulty", "hard", "--seed", "1",
               "--count", str(n)] for n in counts),
        ]
        print(f"{'tree':>8} {'process':>8} {'time':>8}", flush=True)
        worst = 0
        for argv in cases if args.only in (None, "drawing") else []:
            code, seconds, kb, single, _ = peak(argv, folder)
            worst = max(worst, kb)
            shown = " ".join(a if len(a) < 40 else Path(a).name for a in argv)
            print(f"{kb / 1024:5.0f} MB {single / 1024:5.0f} MB {seconds:7.1f} s  exit {code}  tmphys {shown}",
                  flush=True)
        if args.only in (None, "drawing"):
            print(f"worst peak {worst / 1024:.0f} MB: {'under' if worst < BOUND_KB else 'OVER'} the "
                  f"{BOUND_KB / 1024 / 1024:g} GB bound")
        over = 0
        for argv, budget in search_cases(args.quick) if args.only in (None, "search") else []:
            code, seconds, kb, single, said = peak(argv, folder)
            shown = " ".join(f"'{a}'" if " " in a else a for a in argv)
            fits = kb * 1024 <= budget
            over += not fits
            # in MB of 1,000,000 bytes, as the budgets are
            print(f"{kb * 1.024e-3:5.0f} MB {single * 1.024e-3:5.0f} MB {seconds:7.1f} s  exit {code}  tmphys {shown}: "
                  f"{'under' if fits else 'OVER'} its {budget / 1e9:g} GB{f'  ({said})' if said else ''}", flush=True)
        if args.only in (None, "search"):
            print("every search's process tree under its budget" if not over else f"{over} OVER their budget")
        if args.only in (None, "page"):
            page_case(folder)


def page_case(folder: Path) -> None:
    """The table app's search on the worst problems, in a page: the worker's memory against a tab's 512 MiB."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from app import WORST, launch, page_file, page_memory
    from playwright.sync_api import sync_playwright

    path = page_file(folder)
    with sync_playwright() as p:
        browser = launch(p)
        for ident, seconds, memory, said in page_memory(browser, path, WORST):
            print(f"{memory / 2**20:5.0f} MiB {seconds:7.1f} s  the table app's best move on {ident} in Chromium: "
                  f"{'under' if memory <= 512 * 2**20 else 'OVER'} a tab's 512 MiB  ({said})", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
