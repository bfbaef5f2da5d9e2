"""The hardest official problems (issue #55): a seeded sample of the book's Nightmare 5 and 6 verifier sets, each
objective searched natively within a budget of CPU time, one process per problem held to ``--memory``.

    python benchmarks/nightmare.py                                  # 20 of each set, seed 55, 60 s of CPU each
    python benchmarks/nightmare.py --per-set 4 --seconds 20         # a quick look
    python benchmarks/nightmare.py --json after.json --compare before.json   # optima checked against another run
    python benchmarks/nightmare.py --wasm after.json                # the same searches in WebAssembly (Node)
    python benchmarks/nightmare.py --solve "#I51 6HY I" --time-limit 60     # tmphys solve: its tree's CPU, memory

Each problem runs in a process of its own (``--workers`` side by side, one by default: the machine's other work
weighs less), set up as ``tmphys solve`` sets up its first process: one deduction, one engine per objective, both
held to the ``--memory`` budget's share (``solve_plan(budget, apart=False)``). Each objective's search gets
``--seconds`` of the process's CPU time (a profiling timer, ``ITIMER_PROF``, stops it). The process's peak resident
memory (``ru_maxrss``; it starts no process of its own) is its tree's.

It prints, per problem and objective, the optimum (or the bounds reached), the CPU seconds and the search's steps,
and the process's peak memory; then the proven count per set and in all, the CPU figures and the peak. ``--json``
writes every figure to a file; ``--compare`` checks each optimum against such a file (the previous engine's), where
both proved it.

With ``--wasm FILE`` it reads such a file instead and runs each search the native engine proved in WebAssembly under
Node (benchmarks/wasm_node.js, the page's own search.js with its memo cap, ``MEMO_BYTES``), each stopped at
``--wasm-factor`` times its native CPU time (at least 30 s), and prints the WebAssembly/native CPU ratio per search
and over all, beside the native figures.

With ``--app`` it opens each problem of the sample in the table app (table.html, headless Chromium at 360 x 740), asks
Best move as a player does (its first look, 15 s), then Think longer (120 s) where that was not proven, and counts the
first moves proven, with the search worker's memory (the tab's WebAssembly memory: its peak).

``--report NATIVE WASM APP`` prints the three runs' goals side by side; ``--all`` runs the three (native, then the
native run's proofs in WebAssembly, then the app) and prints that report: the issue's one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # the installed tmphys first; this checkout where none is
sys.path.append(str(Path(__file__).resolve().parent))  # wasm_vs_native, beside this script

SETS = ("NightmareHard5V", "NightmareHard6V")
SEED = 55
OBJECTIVES = ("expected", "worst")


class _CpuUp(Exception):
    """The objective's CPU time ran out."""


def _cpu_up(signum: int, frame: Any) -> None:
    raise _CpuUp


def child(line: str, seconds: float, memory: int) -> dict[str, Any]:
    """Search both objectives of one book line in this process, each within ``seconds`` of CPU time."""
    from tmphys.game.problems import parse_problem
    from tmphys.solve.budget import solve_plan
    from tmphys.solve.progress import search_progress
    from tmphys.solve.solver import Deduction, SearchStopped, Solver

    start = time.process_time()
    d = Deduction(parse_problem(line))
    config = solve_plan(memory, apart=False).here.config()
    solvers = {o: Solver(d, o, config=config) for o in OBJECTIVES}
    out: dict[str, Any] = {"line": line, "setup_cpu": time.process_time() - start, "memo_bytes": config.memo_bytes,
                           "assignments": len(d.hidden)}
    signal.signal(signal.SIGPROF, _cpu_up)
    for o, s in solvers.items():
        began = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, seconds)
        row: dict[str, Any] = {}
        try:
            r, q = s.optimum()
            row.update(exact=True, value=[float(r), float(q)])
        except (_CpuUp, SearchStopped):
            now = search_progress(s)
            row.update(exact=False, lower=list(now.bound) if now.bound else None,
                       upper=list(now.found) if now.found else None)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        row.update(cpu=time.process_time() - began, steps=int(s.search.steps()))
        out[o] = row
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["cpu"] = time.process_time() - start
    return out


def sample(per_set: int, seed: int) -> list[tuple[str, str]]:
    """``per_set`` problems of each set, drawn with ``seed``: (set, ID)."""
    from tmphys.game.book import book_set

    rng = random.Random(seed)
    return [(name, p.id) for name in SETS for p in sorted(rng.sample(book_set(name), per_set), key=lambda p: p.id)]


def run_problem(ident: str, seconds: float, memory: int) -> dict[str, Any]:
    """One problem in a process of its own; its figures, or the error it ended with."""
    from tmphys.game.book import book_problem

    line = book_problem(ident).line
    cmd = [sys.executable, __file__, "--child", line, "--seconds", str(seconds), "--memory", str(memory)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=4 * seconds + 300)
    rows = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode or not rows:
        return {"id": ident, "line": line, "error": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    return {"id": ident, **json.loads(rows[-1])}


def value_text(row: dict[str, Any]) -> str:
    if row.get("exact"):
        return "{:g} rounds {:g} questions".format(*row["value"])
    low, up = ("?" if not row.get(k) else "{:g}/{:g}".format(*row[k]) for k in ("lower", "upper"))
    return f"open [{low} .. {up}]"


def native_main(args: argparse.Namespace) -> None:
    chosen = [c for c in sample(args.per_set, args.seed) if not args.only or c[1] in args.only]
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} cores; {args.per_set} problems of each of "
          f"{', '.join(SETS)} (seed {args.seed}); {args.seconds:g} s of CPU an objective; --memory "
          f"{args.memory / 1e9:g} GB; {args.workers} at a time", flush=True)
    results: list[dict[str, Any]] = []
    with ThreadPoolExecutor(args.workers) as pool:
        for r in pool.map(lambda c: {"set": c[0], **run_problem(c[1], args.seconds, args.memory)}, chosen):
            results.append(r)
            if "error" in r:
                print(f"  {r['id']}: {r['error']}", flush=True)
                continue
            print(f"  {r['id']}: " + "; ".join(f"{o} {value_text(r[o])} in {r[o]['cpu']:.1f} s "
                                                f"({r[o]['steps']:,} steps)" for o in OBJECTIVES)
                  + f"; peak {r['rss_mb']:.0f} MB, {r['cpu']:.1f} s CPU in all", flush=True)
    summary(results, args.seconds)
    if args.compare:
        compare(results, json.loads(args.compare.read_text("utf-8")))
    if args.json:
        args.json.write_text(json.dumps({"seconds": args.seconds, "memory": args.memory, "seed": args.seed,
                                         "results": results}, indent=1), "utf-8")
        print(f"wrote {args.json}")


def summary(results: list[dict[str, Any]], seconds: float) -> None:
    """Proven counts per set and in all, CPU figures, the peak memory, the hardest problems."""
    ok = [r for r in results if "error" not in r]
    for name in (*SETS, None):
        rows = [r for r in ok if name is None or r["set"] == name]
        if not rows:
            continue
        both = [r for r in rows if all(r[o]["exact"] for o in OBJECTIVES)]
        each = {o: sum(r[o]["exact"] for r in rows) for o in OBJECTIVES}
        cpus = [r[o]["cpu"] for r in rows for o in OBJECTIVES if r[o]["exact"]]
        errors = sum(r["set"] == name or name is None for r in results) - len(rows)
        print(f"{name or 'all'}: both objectives proven {len(both)}/{len(rows)} within {seconds:g} s each "
              f"[expected {each['expected']}, worst {each['worst']}]"
              + (f", {errors} failed" if errors else "")
              + (f"; proven searches' CPU median {statistics.median(cpus):.1f} s, max {max(cpus):.1f} s"
                 if cpus else "")
              + f"; process CPU max {max(r['cpu'] for r in rows):.1f} s; peak memory "
                f"{max(r['rss_mb'] for r in rows):.0f} MB", flush=True)
    hard = sorted(ok, key=lambda r: -sum(r[o]["cpu"] for o in OBJECTIVES))[:10]
    print("hardest: " + ", ".join(f"{r['id']} {sum(r[o]['cpu'] for o in OBJECTIVES):.0f} s" for r in hard))


def compare(results: list[dict[str, Any]], before: dict[str, Any]) -> None:
    """Every optimum against the other run's, where both proved it."""
    old = {r["id"]: r for r in before["results"] if "error" not in r}
    same = differ = 0
    for r in results:
        if "error" in r or r["id"] not in old:
            continue
        for o in OBJECTIVES:
            if r[o]["exact"] and old[r["id"]][o]["exact"]:
                if r[o]["value"] == old[r["id"]][o]["value"]:
                    same += 1
                else:
                    differ += 1
                    print(f"  DIFFERS: {r['id']} {o}: {r[o]['value']} here, {old[r['id']][o]['value']} before")
    print(f"optima compared with the other run: {same} equal, {differ} different")


def solve_main(args: argparse.Namespace) -> None:
    """``tmphys solve ID --memory M --time-limit T --json`` on each problem: its process tree's CPU and peak memory."""
    from bounds import watch

    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC; tmphys solve --memory {args.memory / 1e9:g}G --time-limit "
          f"{args.time_limit:g} --json, the process tree's CPU (the kernel's count, its processes reaped) and peak "
          "memory (its processes' resident memory summed, every 20 ms)", flush=True)
    for ident in args.solve:
        argv = [sys.executable, "-m", "tmphys", "solve", ident, "--memory", str(args.memory), "--time-limit",
                str(args.time_limit), "--json"]
        with tempfile.TemporaryFile("w+") as stdout:
            process = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, text=True)
            most, status, usage = watch(process)
            stdout.seek(0)
            text = stdout.read()
        try:
            optimal = json.loads(text)["optimal"]
            said = ", ".join(f"{o} {'proven' if optimal[o]['exact'] else 'open'}" for o in OBJECTIVES)
        except (ValueError, KeyError):
            said = f"exit {os.waitstatus_to_exitcode(status)}"
        print(f"  {ident}: {said}; tree CPU {usage.ru_utime + usage.ru_stime:.1f} s, peak {most / 1e6:.0f} MB",
              flush=True)


def wasm_main(args: argparse.Namespace) -> None:
    """The native run's proven searches again in WebAssembly at the page's memo cap: CPU ratios."""
    from wasm_vs_native import run_wasm

    from tmphys.game.problems import parse_problem

    native = json.loads(args.wasm.read_text("utf-8"))
    jobs, pairs = [], []
    for r in native["results"]:
        if "error" in r:
            continue
        prob = parse_problem(r["line"])
        for o in OBJECTIVES:
            if r[o]["exact"]:
                jobs.append({"id": f"{r['id']} {o}", "mode": prob.mode, "cards": [list(c) for c in prob.cards],
                             "objectives": [o], "seconds": max(30.0, args.wasm_factor * r[o]["cpu"])})
                pairs.append((r, o, sum(h.weight for h in prob.hidden)))
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC; {len(jobs)} searches the native run proved ({args.wasm}), in "
          f"WebAssembly under node {node} at the page's memo cap, each stopped at {args.wasm_factor:g}x its native "
          "CPU", flush=True)
    searches = []
    for job, (r, o, weight) in zip(jobs, pairs, strict=True):
        w = run_wasm([job])[job["id"]][0]
        entry, cpu = w["optimal"][o], w["cpu"][o] / 1000
        value = [entry["rounds"], entry["questions"]]
        scale = weight if o == "expected" else 1
        exact = bool(entry["exact"])
        agrees = not exact or abs(value[0] - r[o]["value"][0]) < 1e-6 * scale and \
            abs(value[1] - r[o]["value"][1]) < 1e-6 * scale
        searches.append({"id": job["id"], "native": r[o]["cpu"], "wasm": cpu, "proven": exact, "agrees": agrees})
        print(f"  {job['id']}: native {r[o]['cpu']:.1f} s, WebAssembly {cpu:.1f} s"
              + (f" ({cpu / max(r[o]['cpu'], 1e-9):.2f}x)" if exact else " (stopped, not proven)")
              + ("" if agrees else " VALUES DIFFER"), flush=True)
    out = wasm_figures(searches)
    print(f"WebAssembly/native CPU: {out['proven']}/{out['searches']} proven in WebAssembly; the searches of 1 to 10 s "
          f"native ({out['band']}, {out['band_proven']} proven): {out['ratio']:.2f}x in all, median "
          f"{out['median']:.2f}x; of 10 s or more: {out['long_proven']}/{out['long']} proven within "
          f"{args.wasm_factor:g}x; values differing: {out['differ']}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), "utf-8")
        print(f"wrote {args.json}")


def wasm_figures(searches: list[dict[str, Any]]) -> dict[str, Any]:
    """The WebAssembly run's figures: the CPU ratio over the searches of 1 to 10 s native (under a second, Node's
    start-up and compiling weigh most; past ten, the page's memo cap binds), a search WebAssembly did not prove
    counted with the CPU it had taken when stopped (so the ratio is then a floor), and the longer ones proven."""
    band = [s for s in searches if 1 <= s["native"] < 10]
    done = [s for s in band if s["proven"]]
    long = [s for s in searches if s["native"] >= 10]
    return {"searches": len(searches), "proven": sum(s["proven"] for s in searches), "band": len(band),
            "band_proven": len(done), "ratio": sum(s["wasm"] for s in band) / max(1e-9, sum(s["native"] for s in band)),
            "median": statistics.median(s["wasm"] / s["native"] for s in band) if band else float("nan"),
            "long": len(long), "long_proven": sum(s["proven"] for s in long),
            "differ": sum(not s["agrees"] for s in searches), "rows": searches}


def app_main(args: argparse.Namespace) -> dict[str, Any]:
    """Each problem's Best move in the table app at 360 x 740: its first look, then Think longer if not proven."""
    from app import launch, page_file
    from playwright.sync_api import sync_playwright

    chosen = [c for c in sample(args.per_set, args.seed) if not args.only or c[1] in args.only]
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, load average {os.getloadavg()[0]:.1f}; Best move in table.html "
          f"(Chromium, 360 x 740), {len(chosen)} problems, first look then Think longer", flush=True)
    done = "() => document.getElementById('best-move').dataset.exact !== undefined"
    rows = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        path = page_file(Path(folder))
        browser = launch(p)
        for name, ident in chosen:
            page = browser.new_page(viewport={"width": 360, "height": 740})
            page.goto(path.as_uri() + "#problem=" + ident.replace("#", "%23").replace(" ", "%20") + "&ask=best")
            page.wait_for_selector("body[data-ready=true]")
            start = time.monotonic()
            page.wait_for_function(done, timeout=600000, polling=200)
            first = page.get_attribute("#best-move", "data-exact") == "true"
            first_s = time.monotonic() - start
            longer = first
            if not first:
                page.click("#longer")
                page.wait_for_function(done, timeout=600000, polling=200)
                longer = page.get_attribute("#best-move", "data-exact") == "true"
            row = {"set": name, "id": ident, "first": first, "first_s": first_s, "longer": longer,
                   "seconds": time.monotonic() - start, "memory": page.evaluate("() => tmphysApp.workerMemory()") or 0,
                   "said": page.text_content("#best-move") or ""}
            rows.append(row)
            print(f"  {ident}: load {os.getloadavg()[0]:.1f}, first look {'proven' if first else 'open'} "
                  f"({first_s:.1f} s), "
                  f"{'proven' if longer else 'open'} after {row['seconds']:.1f} s; worker "
                  f"{row['memory'] / 2**20:.0f} MiB; {row['said']}", flush=True)
            page.close()
        browser.close()
    out = {"first": sum(r["first"] for r in rows), "longer": sum(r["longer"] for r in rows), "problems": len(rows),
           "memory": max(r["memory"] for r in rows), "rows": rows}
    print(f"app: proven at the first look {out['first']}/{len(rows)}, within Think longer {out['longer']}/{len(rows)}"
          f" (goal: 95 %); worker memory at most {out['memory'] / 2**20:.0f} MiB (goal: 512)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), "utf-8")
        print(f"wrote {args.json}")
    return out


def report(native: dict[str, Any], wasm: dict[str, Any], app: dict[str, Any]) -> None:
    """The issue's three goals side by side, from the three runs' figures."""
    ok = [r for r in native["results"] if "error" not in r]
    proven = sum(all(r[o]["exact"] for o in OBJECTIVES) for r in ok)
    peak = max(r["rss_mb"] for r in ok)
    print(f"| {len(native['results'])} problems (seed {native['seed']}) | figure | goal |\n| --- | --- | --- |")
    print(f"| native, both objectives proven at {native['seconds']:g} s of CPU each | {proven}/{len(native['results'])}"
          f" | all |")
    print(f"| native, peak memory of a process | {peak:.0f} MB | ≤ 1 GB |")
    print(f"| WebAssembly/native CPU at the page's cap: the {wasm['band']} searches of 1–10 s ({wasm['band_proven']} "
          f"proven) | {wasm['ratio']:.2f}x (median {wasm['median']:.2f}x) | ≤ 2x |")
    print(f"| WebAssembly: the {wasm['long']} searches of 10 s or more, proven within 3x | {wasm['long_proven']} "
          "| all |")
    print(f"| the app's Best move proven within Think longer, 360 x 740 | {app['longer']}/{app['problems']} (first "
          f"look: {app['first']}) | ≥ 95 % |")
    print(f"| the app's search worker | {app['memory'] / 2**20:.0f} MiB | ≤ 512 MiB |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-set", type=int, default=20, help="problems of each set (default 20: 40 in all)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"the sample's seed (default {SEED})")
    ap.add_argument("--seconds", type=float, default=60.0, help="CPU seconds an objective (default 60)")
    ap.add_argument("--memory", type=float, default=1.0, help="each process's budget in GB (default 1)")
    ap.add_argument("--workers", type=int, default=1, help="problems side by side (default 1)")
    ap.add_argument("--json", type=Path, default=None, help="write every figure to this file")
    ap.add_argument("--compare", type=Path, default=None, help="check the optima against this file's")
    ap.add_argument("--wasm", type=Path, default=None, help="instead: the searches this file proved, in WebAssembly")
    ap.add_argument("--wasm-factor", type=float, default=3.0, help="WebAssembly's time, times native's (default 3)")
    ap.add_argument("--solve", nargs="+", default=None, metavar="ID",
                    help="instead: tmphys solve of these problems, its process tree's CPU and peak memory")
    ap.add_argument("--time-limit", type=float, default=120.0, help="with --solve: solve's --time-limit (default 120)")
    ap.add_argument("--app", action="store_true", help="instead: Best move in the table app (Chromium, 360 x 740)")
    ap.add_argument("--only", nargs="+", default=None, metavar="ID", help="these of the sample only")
    ap.add_argument("--report", nargs=3, type=Path, default=None, metavar=("NATIVE", "WASM", "APP"),
                    help="instead: print the goals of three such runs' --json files side by side")
    ap.add_argument("--all", type=Path, default=None, metavar="FOLDER",
                    help="native, WebAssembly and app runs in turn (their JSON kept in FOLDER), then the report")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.seconds, int(args.memory))), flush=True)
        return
    args.memory = int(args.memory * 1e9)
    if args.report:
        report(*(json.loads(f.read_text("utf-8")) for f in args.report))
    elif args.all:
        args.all.mkdir(parents=True, exist_ok=True)
        files = [args.all / f"{k}.json" for k in ("native", "wasm", "app")]
        for f, run in zip(files, (native_main, wasm_main, app_main), strict=True):
            args.json = f
            args.wasm = files[0]
            run(args)
        report(*(json.loads(f.read_text("utf-8")) for f in files))
    elif args.solve:
        solve_main(args)
    elif args.wasm:
        wasm_main(args)
    elif args.app:
        app_main(args)
    else:
        native_main(args)


if __name__ == "__main__":
    main()
