"""The search core compiled to WebAssembly (tmphys/web/static/search.wasm, driven by search.js) gives what the native
engine gives: the same optima on a sample of book problems across all nine sets, the same bounds where a budget of
steps stops both, the same strategy; it asks its host for nothing but a clock and a poll; it keeps to its memory; and
the module shipped is the one the C in the tree builds.

The module runs in Node (benchmarks/wasm_node.js); where Node is missing the tests skip, saying why, unless
``TMPHYS_REQUIRE_BROWSER=1`` (CI). The rebuild needs Debian's clang-14, lld-14 and wasi-libc: without them it skips
unless ``TMPHYS_REQUIRE_WASM_BUILD=1`` (CI installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import tmphys.web
from tmphys.game.book import book_problem
from tmphys.game.criteria import criteria_card
from tmphys.game.problems import parse_problem
from tmphys.solve.solver import Deduction, SearchStopped, Solver

ROOT = Path(__file__).resolve().parents[1]
WEB = Path(tmphys.web.__file__).resolve().parent / "static"
RUNNER = ROOT / "benchmarks" / "wasm_node.js"
BUILD = ROOT / "tmphys" / "solve" / "core" / "build-wasm.sh"
SAMPLE = Path(__file__).resolve().parent / "data" / "wasm-sample.txt"
#: The budget of steps each search of the sample gets, in both builds (the sample's problems are proven within it).
SAMPLE_STEPS = 4000


def _required(variable: str, why: str) -> None:
    if os.environ.get(variable) == "1":
        pytest.fail(f"{variable}=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        _required("TMPHYS_REQUIRE_BROWSER", "Node.js is not installed (the WebAssembly tests run in it)")
    return found


def library() -> list[dict]:
    return [{"criteria": [{"mask": format(c.mask, "x")} for c in criteria_card(n).criteria]} for n in range(1, 49)]


def run_wasm(node: str, jobs: list[dict]) -> dict[str, dict]:
    """search.js's results for these jobs, by id (the results decide: node 20 has been seen to crash on exit)."""
    request = {"web": str(WEB), "library": library(), "jobs": jobs}
    done = subprocess.run([node, str(RUNNER)], input=json.dumps(request), capture_output=True, text=True,
                          check=False, timeout=600)
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(results) == len(jobs), done.stderr[-2000:]
    return {r["id"]: r for r in results}


def job(ident: str, line: str, **extra: object) -> dict:
    p = parse_problem(line)
    return {"id": ident, "mode": p.mode, "cards": [list(c) for c in p.cards], **extra}


def native(line: str, steps: int) -> dict[str, dict]:
    """The native engine's findings per objective, as search.js reports them: the optimum (exact), or the lower
    bound and the value of the best strategy the search found."""
    d = Deduction(parse_problem(line))
    found = {}
    for objective in ("expected", "worst"):
        s = Solver(d, objective)
        s.set_step_limit(steps)
        try:
            found[objective] = {"exact": True, "value": s.round_value(d.universe)}
        except SearchStopped:
            r, q, exact = s.search.floor(d.members(d.universe).astype("uint32"))
            _, up, _ = s._known_move(d.universe)
            found[objective] = {"exact": bool(exact), "lower": (r, q), "up": up}
    return found


def as_entry(value: tuple[int, int], objective: str, weight: int) -> tuple[float, float]:
    return (value[0] / weight, value[1] / weight) if objective == "expected" else value


def same(found: dict, entry: dict, objective: str, weight: int) -> bool:
    """Whether a search.js entry (the CLI's JSON shape) says what the native search found."""
    if found["exact"]:
        return entry["exact"] is True and (entry["rounds"], entry["questions"]) == as_entry(found["value"], objective,
                                                                                             weight)
    low = entry["lower_bound"]
    up = (entry["rounds"], entry["questions"])
    return (entry["exact"] is False and (low["rounds"], low["questions"]) == as_entry(found["lower"], objective, weight)
            and (up == as_entry(found["up"], objective, weight) if found["up"] else up == (None, None)))


def test_the_module_asks_its_host_for_a_clock_and_a_poll_only(node: str) -> None:
    script = ("const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));"
              "console.log(JSON.stringify(WebAssembly.Module.imports(m)))")
    imports = json.loads(subprocess.run([node, "-e", script, str(WEB / "search.wasm")], capture_output=True,
                                        text=True, check=True).stdout)
    assert imports == [{"module": "env", "name": "tm_now", "kind": "function"},
                       {"module": "env", "name": "tm_poll", "kind": "function"}]


def test_the_shipped_module_is_built_from_the_c_in_the_tree(tmp_path: Path) -> None:
    missing = [t for t in ("clang-14", "wasm-ld-14") if shutil.which(t) is None]
    if missing or not Path("/usr/lib/wasm32-wasi/libc.a").exists():
        _required("TMPHYS_REQUIRE_WASM_BUILD", "the WebAssembly toolchain is not installed (apt-get install clang-14 "
                                               "lld-14 wasi-libc libclang-rt-14-dev-wasm32)")
    out = tmp_path / "search.wasm"
    subprocess.run(["bash", str(BUILD), str(out)], check=True, capture_output=True)
    assert out.read_bytes() == (WEB / "search.wasm").read_bytes(), "search.wasm is stale: run build-wasm.sh"


def test_webassembly_optima_equal_the_native_engines_on_the_sample(node: str) -> None:
    ids = [line for line in SAMPLE.read_text("utf-8").splitlines() if line and not line.startswith("# ")]
    problems = [book_problem(i) for i in ids]
    assert len(problems) >= 300 and len({p.set_name for p in problems}) == 9
    results = run_wasm(node, [job(p.id, p.line, steps=SAMPLE_STEPS) for p in problems])
    wrong = []
    for p in problems:
        d = Deduction(parse_problem(p.line))
        weight = d.weight(d.universe)
        found = native(p.line, SAMPLE_STEPS)
        for objective in ("expected", "worst"):
            assert found[objective]["exact"], f"{p.id} is no longer proven within {SAMPLE_STEPS} steps"
            if not same(found[objective], results[p.id]["optimal"][objective], objective, weight):
                wrong.append((p.id, objective, found[objective], results[p.id]["optimal"][objective]))
    assert not wrong, wrong[:5]


#: Problems a budget of steps stops before the proof, in both builds: Extreme and Nightmare, four to six verifiers.
STOPPED = ["#F45 LS8", "#F5T 5BY", "#F63 CWV R", "#I4D FN4", "#I51 LXV 8", "#I63 F66 8"]


def test_a_budget_stops_both_builds_at_the_same_bounds(node: str) -> None:
    lines = {i: book_problem(i).line for i in STOPPED}
    results = run_wasm(node, [job(i, line, steps=300) for i, line in lines.items()])
    stopped = 0
    for i, line in lines.items():
        d = Deduction(parse_problem(line))
        found = native(line, 300)
        for objective in ("expected", "worst"):
            stopped += not found[objective]["exact"]
            assert same(found[objective], results[i]["optimal"][objective], objective, d.weight(d.universe)), i
    assert stopped >= 6  # the budget did stop most searches: their bounds were compared, not only optima


def test_the_strategy_is_the_native_solvers(node: str) -> None:
    sample = [line for line in SAMPLE.read_text("utf-8").splitlines() if line and not line.startswith("# ")]
    ids = ["#A46 NXF", "#C63 MO8 2", *(next(i for i in sample if i.startswith(p)) for p in ("#B", "#F", "#I"))]
    lines = {i: book_problem(i).line for i in ids}
    for objective in ("expected", "worst"):
        results = run_wasm(node, [job(i, line, tree=True, objective=objective, objectives=[objective])
                                  for i, line in lines.items()])
        for i, line in lines.items():
            assert results[i]["tree"] == Solver(Deduction(parse_problem(line)), objective).tree(), (i, objective)


def test_a_search_without_room_says_so_and_the_module_goes_on(node: str) -> None:
    script = f"""
const fs = require("fs");
import({json.dumps((WEB / "search.js").as_uri())}).then((S) => {{
const core = new S.Core(fs.readFileSync({json.dumps(str(WEB / "search.wasm"))}));
core.setLibrary(JSON.parse(fs.readFileSync(0, "utf8")));
const out = {{}};
out.cap = core.x.tm_malloc(600 * 1024 * 1024);          // past the module's 512 MiB: refused
const hog = [];
for (const size of [16 << 20, 1 << 20, 1 << 16]) for (let p; (p = core.x.tm_malloc(size)); ) hog.push(p);  // all taken
const setup = core.setup({{mode: "nightmare", cards: [[17], [34], [36], [44]]}});
try {{ new S.Solver(setup, "expected"); out.made = true; }} catch (e) {{ out.error = [e.constructor.name, e.message]; }}
for (const p of hog) core.x.tm_free(p);
const s = new S.Solver(setup, "worst");
out.after = s.optimalValue();
console.log(JSON.stringify(out));
}});
"""
    done = subprocess.run([node, "-e", script], input=json.dumps(library()), capture_output=True, text=True,
                          check=False, timeout=120)
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["cap"] == 0
    assert out["error"][0] == "OutOfMemory" and "memory" in out["error"][1]
    assert out["after"] == {"rounds": 3, "questions": 9, "exact": True}


def test_a_stopped_search_keeps_its_best_found_move_in_its_progress(node: str) -> None:
    """What the app keeps when the player stops a search: the progress names the best found's proposal and the
    verifier it asks first, and they are the memo's own (the move the search would play, stopped there); a search
    run to the end names its proven move."""
    runs = [("#I51 LXV 8", 300), ("#F45 LS8", 300), ("#I51 6HY I", 300), ("#I51 6HY I", 5000), ("#I63 OQZ O", 2000),
            ("#F45 LS8", 0)]
    problems = [(parse_problem(book_problem(i).line), steps) for i, steps in runs]
    jobs = [[p.mode, [list(c) for c in p.cards], steps] for p, steps in problems]
    script = f"""
const fs = require("fs");
import({json.dumps((WEB / "search.js").as_uri())}).then((S) => {{
const core = new S.Core(fs.readFileSync({json.dumps(str(WEB / "search.wasm"))}));
core.setLibrary(JSON.parse(fs.readFileSync(0, "utf8")));
const out = [];
for (const [mode, cards, steps] of {json.dumps(jobs)}) {{
  const setup = core.setup({{mode, cards}});
  for (const objective of ["expected", "worst"]) {{
    const e = new S.Engine(setup, objective === "expected");
    const u = setup.universe();
    const seen = [];
    core.polled = () => {{ seen.push(e.progress()); return false; }};
    e.limit(null, steps || null);
    let value = null;
    try {{ value = e.roundValue(u); }} catch (err) {{ if (!(err instanceof S.Stopped)) throw err; }}
    core.polled = null;
    const p = e.progress(), known = e.knownMove(u);
    const inside = known.move >= 0 ? e.knownMove(u, known.move, 3) : null;
    out.push({{mode, objective, stopped: value === null, value, polls: seen.length, progress: p, known, inside}});
    e.free();
  }}
  setup.free();
}}
console.log(JSON.stringify(out));
}});
"""
    done = subprocess.run([node, "-e", script], input=json.dumps(library()), capture_output=True, text=True,
                          check=False, timeout=120)
    rows = json.loads(done.stdout.splitlines()[-1])
    stopped = [r for r in rows if r["stopped"]]
    assert len(stopped) >= 6, rows  # the budget stopped most of them part way: what a Stop keeps was read
    for r in rows:
        p, known = r["progress"], r["known"]
        if r["stopped"]:
            assert p["up"] == known["up"] and p["move"] == known["move"], r
            if p["up"]:
                assert 0 <= p["move"] < 125, r
                if r["inside"]["up"]:
                    assert p["question"] == r["inside"]["move"] and 0 <= p["question"] < 6, r
        else:
            assert p["move"] == r["value"]["move"] and p["up"] == p["low"] == [r["value"]["rounds"],
                                                                           r["value"]["questions"]], r
    assert any(r["stopped"] and r["progress"]["up"] and r["progress"]["question"] >= 0 for r in rows), rows
