"""Solve the official problems through the machine and report, per set, how it went.

For each problem: read and validate it, compute both optima of its card set (expected and worst case), and
play the dealt verification cards through the machine (simulated stacks) with the expected-optimal strategy.

    python benchmarks/solve_official.py                         # every problem of every set
    python benchmarks/solve_official.py --sample 50 --timeout 60 ExtremeHard4V NightmareHard4V
    python benchmarks/solve_official.py --reference --sample 20 ClassicHard6V   # the reference solver, to compare

The compiled search is used when it is built where tmphys is imported from (``pip install -e .`` in a checkout;
``setup.py`` run by hand needs a setuptools that reads pyproject.toml's licence field, 77 or later); the first line
printed says which search runs.

Per set it prints: share with the right code, share with both optima proven within the time limit (past it
the search stops; each round of the play then gets the exact search afresh for --round-seconds, and where that
runs out too, the best strategy the search found, or the greedy strategy), rounds and questions used against the
dealt secret, optimal expected and worst-case values (means over the proven ones), time median and max, peak
memory, the three slowest problems.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import signal
import statistics
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

# one BLAS thread per worker: the solver's matrix products are small, and two workers on two cores with
# several BLAS threads each slow each other down (must be set before numpy is first imported)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is

SETS = ["ClassicEasy4V", "ClassicStandard5V", "ClassicHard6V", "ExtremeHard4V", "ExtremeHard5V",
        "ExtremeHard6V", "NightmareHard4V", "NightmareHard5V", "NightmareHard6V"]

_machine: Any = None


class _TimeUp(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _TimeUp


def _init(layout: str) -> None:
    global _machine
    from tmphys.cards.machine import Machine

    _machine = Machine(layout)
    signal.signal(signal.SIGALRM, _alarm)


def solve_one(task: tuple[str, str, int, float, bool]) -> dict[str, Any]:
    """Solve one problem-book line within a time limit; report values, play, time and memory.

    The solvers share one deadline (the time limit): past it, the search stops and the best strategy it found,
    or the greedy strategy, plays on, and the values are reported as not exact. A hard alarm well past the limits
    is a safety net.
    """
    from tmphys.game.problems import parse_problem
    from tmphys.solve.solver import Deduction, SearchStopped, Solver, play

    line, answer, timeout, round_seconds, native = task
    start = time.perf_counter()
    out: dict[str, Any] = {"line": line, "ok": False}
    # reading a big problem and its first bounds are not under the search's limit: a short limit gets a
    # minute of slack
    signal.alarm(int(3 * timeout + 10 * round_seconds) + 60)
    try:
        p = parse_problem(line)
        d = Deduction(p)
        solvers = {o: Solver(d, o, native) for o in ("expected", "worst")}
        deadline = time.monotonic() + timeout
        for o, s in solvers.items():
            s.deadline = deadline
            try:
                r, q = s.optimum()
                out[o] = (float(r), float(q))
            except SearchStopped:
                out[o + "_bounds"] = [b and tuple(float(x) for x in b) for b in s.bounds(round_seconds)]
        exact = "expected" in out and "worst" in out
        code, rounds = play(p, _machine, "expected", solvers["expected"], None if exact else round_seconds)
        out.update(ok=str(code) == answer, rounds=len(rounds), questions=sum(len(r.answers) for r in rounds),
                   exact=exact, played_optimally=all(r.exact for r in rounds),
                   assignments=len(d.hidden))
        out["seconds"] = time.perf_counter() - start
    except _TimeUp:
        out["timeout"] = True
    except Exception as e:  # report and go on: one bad problem must not stop the run
        out["error"] = f"{type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
    out.setdefault("seconds", time.perf_counter() - start)
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def load(name: str, sample: int | None) -> list[tuple[str, str]]:
    """The set's problem lines with their published answers (every k-th line when sampling), from the book shipped
    with tmphys."""
    from tmphys.game.book import book_set

    problems = book_set(name)
    if sample:
        step = max(1, len(problems) // sample)
        problems = problems[::step][:sample]
    return [(p.line, str(p.answer)) for p in problems]


def report(name: str, results: list[dict[str, Any]]) -> str:
    """One block of figures for a set (optimal means over the problems whose optimum was proven)."""
    done = [r for r in results if "rounds" in r]
    ok = sum(r["ok"] for r in results)
    exact = [r for r in results if r.get("exact")]
    times = [r["seconds"] for r in results]
    exact_times = [r["seconds"] for r in exact]

    def mean(rows: list[dict[str, Any]], key: str, i: int | None = None) -> float:
        vals = [r[key] if i is None else r[key][i] for r in rows if key in r]
        return statistics.fmean(vals) if vals else float("nan")

    n = max(1, len(results))
    e = [r for r in results if "expected" in r]
    w = [r for r in results if "worst" in r]
    return (f"{name}: right code {ok}/{len(results)} ({100 * ok / n:.1f}%); both optima proven "
            f"{len(exact)}/{len(results)} ({100 * len(exact) / n:.1f}%) [expected {len(e)}, worst {len(w)}]; "
            f"played optimally {sum(r.get('played_optimally', False) for r in results)}\n"
            f"  played vs dealt secret: {mean(done, 'rounds'):.3f} rounds, {mean(done, 'questions'):.3f} "
            f"questions (mean over {len(done)})\n"
            f"  optimal expected: {mean(e, 'expected', 0):.3f} rounds, {mean(e, 'expected', 1):.3f} questions "
            f"(mean over {len(e)}); optimal worst: {mean(w, 'worst', 0):.3f} rounds, "
            f"{mean(w, 'worst', 1):.3f} questions (mean over {len(w)})\n"
            f"  time: median {statistics.median(times):.3f} s, max {max(times):.2f} s"
            + (f" (proven ones: median {statistics.median(exact_times):.3f} s, max {max(exact_times):.2f} s)"
               if exact_times else "")
            + f"; peak memory {max(r['rss_mb'] for r in results):.0f} MB")


def _count_sets(cards: tuple[int, ...]) -> int:
    from tmphys.game.criteria import criteria_card
    from tmphys.game.problems import _distinct, valid_choices

    return len(valid_choices([[c.mask for c in _distinct(criteria_card(n).criteria)] for n in cards]))


def count_games(verifiers: int, workers: int) -> tuple[int, int]:
    """Valid games with this many verifiers over all card sets: (games, card sets with at least one)."""
    import itertools

    sets = list(itertools.combinations(range(1, 49), verifiers))
    with mp.Pool(workers) as pool:
        counts = pool.map(_count_sets, sets, chunksize=2000)
    return sum(counts), sum(1 for c in counts if c)


def main() -> None:
    """Parse options, run the sets over a process pool, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="*", default=SETS, help="set names (default: all nine)")
    ap.add_argument("--sample", type=int, default=None, help="problems per set, evenly spaced (default: all)")
    ap.add_argument("--timeout", type=int, default=120, help="time limit per problem, seconds (default 120)")
    ap.add_argument("--round-seconds", type=float, default=5.0,
                    help="when the optimum is not proven: exact search per round of the play, and time for the "
                         "greedy upper bound, seconds (default 5)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--layout", default="classic")
    ap.add_argument("--reference", action="store_true", help="search with the reference solver, not the engine")
    ap.add_argument("--count-games", type=int, metavar="N", default=None,
                    help="instead: count valid games with N verifiers over all card sets (reference: 4 -> "
                         "1,033,950 games over 108,839 card sets)")
    args = ap.parse_args()
    if args.count_games:
        t0 = time.perf_counter()
        games, card_sets = count_games(args.count_games, args.workers)
        print(f"{args.count_games} verifiers: {games:,} valid games over {card_sets:,} card sets "
              f"({time.perf_counter() - t0:.1f} s)")
        return
    from tmphys.solve.engine import engine_built
    from tmphys.solve.runner import run_all

    native = not args.reference and engine_built()
    missing = "" if args.reference else " (the engine is not built here: pip install .)"
    print("search: " + ("compiled engine" if native else "reference solver" + missing), flush=True)
    for name in args.sets:
        tasks = [((line, answer, args.timeout, args.round_seconds, native),)
                 for line, answer in load(name, args.sample)]
        t0 = time.perf_counter()
        # the runner that rates booklets: a worker that dies (a crash in the compiled search) stops the run with a
        # message, rather than leave it waiting for its lost problem
        try:
            results = run_all(solve_one, tasks, args.workers, initializer=_init, initargs=(args.layout,), spawn=False)
        except BrokenProcessPool:
            sys.exit(f"solve_official: {name}: a worker process died (a crash in the search?); run stopped")
        print(report(name, results) + f"\n  wall {time.perf_counter() - t0:.1f} s", flush=True)
        slow = sorted(results, key=lambda r: -r["seconds"])[:3]
        print("  slowest: " + "; ".join(f"{r['line'].split(',')[0]} {r['seconds']:.2f} s" for r in slow),
              flush=True)
        for r in results:
            if not r["ok"]:
                why = "timeout" if "timeout" in r else r.get("error", "wrong code")
                print(f"  not solved: {r['line']} ({why})", flush=True)
            elif not r["exact"]:
                print(f"  not proven in {args.timeout} s: {r['line']} {r.get('expected_bounds', '')} "
                      f"{r.get('worst_bounds', '')}", flush=True)


if __name__ == "__main__":
    main()
