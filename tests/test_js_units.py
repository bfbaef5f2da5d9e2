"""The app's pure modules in Node, without a browser (tests/js/*.test.mjs, Node's own test runner): the link written
and read back, the words and their plural forms, typed problems read and set up as the Python model reads them.

Every script of the app is a module of one job, short enough to read whole: a test holds each under 400 lines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tmphys.game.criteria import ID_ALIASES, ID_COLOURS, ID_LETTERS, ID_SYMBOLS, Library, library, load_library
from tmphys.game.problems import ProblemError, parse_problem
from tmphys.web.book_data import book_data
from tmphys.web.table_app import _criteria_cards, _verification_cards, link_criteria

ROOT = Path(__file__).resolve().parent.parent
NEW_FAMILIES = ROOT / "examples" / "criteria" / "new-families.toml"
JS_TESTS = ROOT / "tests" / "js"
MAX_LINES = 400
#: Typed problems, right and wrong, that the Node tests read as the page does and hold to the Python model.
TYPED = ["#C63 MO8 2", "#a46nxf", "#Z99 ZZZ", "3 7 10 14", "3 7 10", "49 7 10 14", "N3 N7 N10 N14",
         "13/17 15/45 27/22 20/8", "A 4 447 B 9 646 C 11 566 D 14 322", "A 4 447 B 9 646 C 11 566 D 14",
         "A 4 Q447", "A 4 447 # my note", "A 4 999 B 9 646 C 11 566 D 14 322", "1 2 3 4 5 6 7", "x 7 10 14"]
#: Typed problems with users' cards (examples/criteria/new-families.toml): numbers read as cards or IDs as the
#: library has them (1200 is an ID of card 53's, 49 a card; 100 is no card, so an ID, and no card has it).
OWN_TYPED = ["A 49 1201 B 50 9752 C 51 1301 D 52 3361", "49 50 51 52", "N49 N50 N51 N52 1201 9752 1301 3361",
             "A 49 1201 B 50 9752 C 51 1301 D 53 1200", "49 1201", "A 49 100 B 50", "A 55 1201", "A 4 447 B 49 1201"]


def python_reading(text: str, lib: Library | None = None) -> dict:
    """The model's reading of a typed problem, in the shape the Node test gives the page's (as tests/test_app.py)."""
    try:
        p = parse_problem(text, criteria=lib)
    except ProblemError as e:
        return {"error": str(e)}
    return {"mode": p.mode, "cards": [list(c) for c in p.cards],
            "dealt": [d.index for d in p.dealt] if p.dealt else None, "colour": p.colour}


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("TMPHYS_REQUIRE_BROWSER") == "1":
            pytest.fail("TMPHYS_REQUIRE_BROWSER=1 but Node.js is not installed (the app's unit tests run in it)")
        pytest.skip("the app's unit tests need Node.js (apt-get install nodejs)")
    return node


def test_the_apps_pure_modules_pass_their_node_tests(tmp_path: Path) -> None:
    node = node_or_skip()
    facts = {"cards": _criteria_cards(library()), "verification": _verification_cards(library()),
             "book": book_data(library()),
             "ids": {"colours": list(ID_COLOURS), "letters": dict(ID_LETTERS), "symbols": dict(ID_SYMBOLS),
                     "aliases": dict(ID_ALIASES)},
             "typed": [[t, python_reading(t)] for t in TYPED]}
    own = load_library([str(NEW_FAMILIES)])
    problem = parse_problem(OWN_TYPED[0], criteria=own)
    facts["own"] = {"cards": _criteria_cards(own), "verification": _verification_cards(own),
                    "typed": [[t, python_reading(t, own)] for t in OWN_TYPED],
                    "link": {"text": OWN_TYPED[0], "criteria": link_criteria(problem)}}
    (tmp_path / "facts.json").write_text(json.dumps(facts, ensure_ascii=False), "utf-8")
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    assert len(files) >= 3
    done = subprocess.run([node, "--test", *files], capture_output=True, text=True, check=False, timeout=300,
                          env={**os.environ, "TMPHYS_JS_FACTS": str(tmp_path / "facts.json")}, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout, done.stdout[-2000:]


def test_every_script_is_a_module_of_one_job_under_400_lines() -> None:
    scripts = sorted((ROOT / "tmphys").rglob("*.js"))
    assert scripts
    long = {str(p.relative_to(ROOT)): n for p in scripts if (n := len(p.read_text("utf-8").splitlines())) >= MAX_LINES}
    assert not long, long


def test_the_inliner_runs_each_module_once_after_what_it_imports_and_refuses_what_it_cannot_read() -> None:
    from tmphys.web.modules import ModuleError, bundle

    files = {"a.js": ('import { b, c as see } from "./b.js";\nimport * as C from "./c.js";\n'
                      "export const a = b + see + C.c;\n"),
             "b.js": 'import { c } from "./c.js";\nexport function b() { return c; }\nexport { c };\n',
             "c.js": "export const c = 1;\n"}

    def reader(given: dict[str, str]):
        def read(name: str) -> str:
            if name not in given:
                raise FileNotFoundError(name)
            return given[name]
        return read

    read = reader(files)
    script = bundle(["a.js"], read, expose={"A": "a.js"})
    assert [line for line in script.splitlines() if line.startswith("// ----")] == \
        ["// ---- c.js", "// ---- b.js", "// ---- a.js"]
    assert "self.A = $module_a;" in script and "export" not in script and "import" not in script
    assert script == bundle(["a.js"], read, expose={"A": "a.js"})
    for broken, why in [({"c.js": 'import { a } from "./a.js";\nexport const c = 1;\n'}, "cycle"),
                        ({"c.js": "export let c = 1;\n"}, "does not read"),
                        ({"c.js": "export default 1;\n"}, "does not read"),
                        ({"c.js": 'import x from "lodash";\n'}, "does not read"),
                        ({"c.js": 'import { d } from "./d.js";\n'}, "not there")]:
        with pytest.raises(ModuleError, match=why):
            bundle(["a.js"], reader({**files, **broken}))
