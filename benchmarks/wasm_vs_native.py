"""Time the search core compiled to WebAssembly (in Node) against the native engine on the same book problems, in one
run, and check they give the same optima.

    python benchmarks/wasm_vs_native.py --per-set 20 --steps 20000        # every set, the first 20 problems each
    python benchmarks/wasm_vs_native.py --sample tests/data/wasm-sample.txt --steps 4000   # the tests' sample
    python benchmarks/wasm_vs_native.py --per-set 40 --steps 4000 --write-sample tests/data/wasm-sample.txt

Each problem's two objectives are searched from scratch within the same budget of steps by both builds (the native
one through tmphys.solve.Solver, the WebAssembly one through benchmarks/wasm_node.js), each timed from making its
engine to its optimum, in CPU time (so that other work on the machine weighs less; the native search is one thread,
and Node's count includes its compiler's threads). Node runs each set twice in one process: the first pass compiles
the module's code as it goes (as a page does when it opens), the second runs it compiled. It prints, per set, the
optima proven, whether every value agrees, the summed times and their ratios (WebAssembly / native, first and
second pass), then over all. With --write-sample, it writes the problems proven within
the budget by both, fewest steps first, up to --sample-size per set: the sample tests/test_wasm.py compares.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is
RUNNER = Path(__file__).resolve().parent / "wasm_node.js"


def library() -> list[dict]:
    """The 48 criteria cards' truth tables, as search.js reads them."""
    from tmphys.game.criteria import criteria_card

    return [{"criteria": [{"mask": format(c.mask, "x")} for c in criteria_card(n).criteria]} for n in range(1, 49)]


def web_folder() -> Path:
    """Where the installed tmphys keeps search.js and search.wasm."""
    import tmphys.web

    return Path(tmphys.web.__file__).resolve().parent / "static"


def native(line: str, steps: int) -> tuple[dict, dict, dict]:  # noqa: C901 (one measurement, told in order)
    """The native engine's optima of a book line within `steps` a search (as search.js reports them: the optimum, or
    the lower bound and the value of the best strategy the search found), its seconds and its steps per objective."""
    from tmphys.game.problems import parse_problem
    from tmphys.solve.solver import Deduction, SearchStopped, Solver

    d = Deduction(parse_problem(line))
    found, seconds, steps_taken = {}, {}, {}
    for objective in ("expected", "worst"):
        start = time.process_time()
        s = Solver(d, objective)
        s.set_step_limit(steps)
        try:
            found[objective] = {"exact": True, "value": list(s.round_value(d.universe))}
        except SearchStopped:
            r, q, exact = s.search.floor(d.members(d.universe).astype("uint32"))
            _, up, _ = s._known_move(d.universe)
            found[objective] = {"exact": bool(exact), "lower": [r, q], "up": list(up) if up else None}
        seconds[objective] = time.process_time() - start
        steps_taken[objective] = s.search.steps()
    return found, seconds, steps_taken


def same(native_found: dict, entry: dict, weight: int, objective: str) -> bool:
    """Whether search.js's entry (the CLI's JSON shape) says what the native search found."""
    def scaled(cost: list[int]) -> tuple[float, float]:
        return (cost[0] / weight, cost[1] / weight) if objective == "expected" else (cost[0], cost[1])

    if native_found["exact"]:
        return bool(entry["exact"]) and (entry["rounds"], entry["questions"]) == scaled(native_found["value"])
    low = entry.get("lower_bound") or {}
    up = native_found["up"]
    return (not entry["exact"] and (low.get("rounds"), low.get("questions")) == scaled(native_found["lower"])
            and ((entry["rounds"], entry["questions"]) == scaled(up) if up else entry["rounds"] is None))


def run_wasm(jobs: list[dict], repeat: int = 1) -> dict[str, dict]:
    """search.js's results of these jobs, by id, each pass's in a list (one Node process, ``repeat`` passes)."""
    request = {"web": str(web_folder()), "library": library(), "jobs": jobs, "repeat": repeat}
    done = subprocess.run(["node", str(RUNNER)], input=json.dumps(request), capture_output=True, text=True,
                          check=False)
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(results) != len(jobs) * repeat:  # node 20 has been seen to crash on exit after a whole run: results decide
        raise RuntimeError(f"node gave {len(results)} of {len(jobs) * repeat} results: {done.stderr.strip()[-500:]}")
    by: dict[str, list[dict]] = {}
    for r in results:
        by.setdefault(r["id"], []).append(r)
    return by


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-set", type=int, default=20, help="problems per set, from the first (default 20)")
    ap.add_argument("--start", type=int, default=0, help="the first problem's place in each set (default 0)")
    ap.add_argument("--steps", type=int, default=20000, help="steps each objective's search may take")
    ap.add_argument("--sets", nargs="*", default=None, help="set names (default: all nine)")
    ap.add_argument("--sample", type=Path, default=None, help="the problems of this file (one ID a line) instead")
    ap.add_argument("--write-sample", type=Path, default=None, help="write the proven problems to this file")
    ap.add_argument("--sample-size", type=int, default=35, help="problems per set in the sample (default 35)")
    args = ap.parse_args()

    from tmphys.game.book import book_problem, book_sets
    from tmphys.game.problems import parse_problem

    sets = book_sets()
    chosen = {name: probs[args.start:args.start + args.per_set] for name, probs in sets.items()
              if args.sets is None or name in args.sets}
    if args.sample:
        listed = [book_problem(line) for line in args.sample.read_text("utf-8").splitlines()
                  if line and not line.startswith("# ")]
        chosen = {name: [p for p in listed if p.set_name == name] for name in sets}
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    which = (f"the {sum(map(len, chosen.values()))} problems of {args.sample}" if args.sample
             else f"{args.per_set} problems a set from #{args.start}")
    print(f"{time.strftime('%Y-%m-%d')}, {os.uname().machine}, {os.cpu_count()} cores; {which}, {args.steps:,} steps "
          f"a search; node {node}")
    all_native = all_wasm = all_first = 0.0
    sample: list[str] = []
    for name, probs in chosen.items():
        jobs, natives = [], {}
        for p in probs:
            prob = parse_problem(p.line)
            jobs.append({"id": p.id, "mode": prob.mode, "cards": [list(c) for c in prob.cards], "steps": args.steps})
            natives[p.id] = native(p.line, args.steps)
        wasm = run_wasm(jobs, repeat=2)
        agree = proven = 0
        t_native = t_wasm = t_first = 0.0
        ranked = []
        for p in probs:
            found, seconds, steps = natives[p.id]
            first, w = wasm[p.id]
            weight = sum(h.weight for h in parse_problem(p.line).hidden)
            ok = all(same(found[o], w["optimal"][o], weight, o) for o in found)
            agree += ok
            both = all(found[o]["exact"] for o in found)
            proven += both
            t_native += sum(seconds.values())
            t_wasm += sum(w["cpu"].values()) / 1000
            t_first += sum(first["cpu"].values()) / 1000
            if ok and both:
                ranked.append((sum(steps.values()), p.id))
        all_native += t_native
        all_wasm += t_wasm
        all_first += t_first
        sample += [ident for _, ident in sorted(ranked)[:args.sample_size]]
        if not probs:
            continue
        print(f"{name}: {proven}/{len(probs)} proven (both objectives), values agree {agree}/{len(probs)}; CPU native "
              f"{t_native:.2f} s, WebAssembly {t_first:.2f} s first pass, {t_wasm:.2f} s second; ratios "
              f"{t_first / max(t_native, 1e-9):.2f}, {t_wasm / max(t_native, 1e-9):.2f}", flush=True)
    print(f"all: CPU native {all_native:.2f} s, WebAssembly {all_first:.2f} s first pass, {all_wasm:.2f} s second; "
          f"ratios {all_first / max(all_native, 1e-9):.2f}, {all_wasm / max(all_native, 1e-9):.2f}")
    if args.write_sample:
        args.write_sample.write_text("# book problems whose optima both builds prove within "
                                     f"{args.steps:,} steps (benchmarks/wasm_vs_native.py)\n"
                                     + "\n".join(sample) + "\n", "utf-8")
        print(f"wrote {len(sample)} problems to {args.write_sample}")


if __name__ == "__main__":
    main()
