"""The peak memory of the worst inputs tmphys accepts, each run as its own process (#38: no accepted input needs more
than about 2 GB).

Run: python benchmarks/bounds.py [--quick]. Prints, for each case, the command, its exit status, its wall time and
its peak resident memory (the process's own ``ru_maxrss``, through ``os.wait4``). The cases: the pixel check at the
finest resolution on the shipped layout and on the largest card a layout may have (its finest accepted
resolution), a shifted stack at the finest resolution, a build with the most alignment marks and copies, and
``generate`` in Nightmare with 6 verifiers at two counts (memory that does not grow with --count). Refused inputs
(the same card at --resolution 50) are shown refused at once, in a few megabytes more than Python's start.
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

import tomlkit

#: What the bound is: about 2 GB (in kilobytes, as ``ru_maxrss`` counts on Linux).
BOUND_KB = 2 * 1024 * 1024


def peak(argv: list[str], cwd: Path) -> tuple[int, float, int]:
    """Run ``python -m tmphys ARGV``: its exit status, wall time (s) and peak resident memory (KB)."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "tmphys", *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, time.perf_counter() - started, usage.ru_maxrss


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


def main() -> None:
    """Run every case and print its figures, and whether each stayed under the bound."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller generate counts (a minute in all)")
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
        worst = 0
        for argv in cases:
            code, seconds, kb = peak(argv, folder)
            worst = max(worst, kb)
            shown = " ".join(a if len(a) < 40 else Path(a).name for a in argv)
            print(f"{kb / 1024:8.0f} MB {seconds:7.1f} s  exit {code}  tmphys {shown}", flush=True)
    print(f"worst peak {worst / 1024:.0f} MB: {'under' if worst < BOUND_KB else 'OVER'} the "
          f"{BOUND_KB / 1024 / 1024:g} GB bound")


if __name__ == "__main__":
    main()
