"""The table app's inputs fuzzed in Chromium: thousands of link fragments and typed strings (markup, ``javascript:``
addresses, malformed escapes, very long ones, a character of every Unicode class), and none runs a script, raises an
uncaught exception, or loses the game on the page.

Every case carries a payload that would set ``window.__pwned`` if input ever reached the page as markup or script;
the page's Content-Security-Policy forbids inline handlers as a second wall, so the payloads are also tried with the
policy's own reports watched (a blocked handler is an input that reached an attribute).
"""

from __future__ import annotations

import random
import sys
import unicodedata
from functools import cache
from urllib.parse import quote

from tmphys.cards.machine import Machine
from tmphys.game.codes import Code
from tmphys.game.problems import parse_problem

BASE_PROBLEM = "#C63 MO8 2"
#: How many fragments and typed strings each run tries (benchmarks/RESULTS.md gives the classes).
FRAGMENTS = 2400
TYPED = 600
#: Of the fragments, how many go through the address bar's own path (a hashchange: slow, so fewer).
THROUGH_ADDRESS = 150

PAYLOADS = ['<img src=x onerror="window.__pwned=1">', '"><svg onload=window.__pwned=1>', "javascript:window.__pwned=1",
            "</script><script>window.__pwned=1</script>", "'-window.__pwned=1-'", "${window.__pwned=1}",
            "<a href=javascript:window.__pwned=1>x</a>", "&#x3C;script&#x3E;window.__pwned=1", "<style>*{}</style>",
            "%3Cscript%3Ewindow.__pwned=1%3C/script%3E", '" autofocus onfocus="window.__pwned=1', "<!--", "]]>",
            "\u202e<b>reversed</b>", "data:text/html,<script>window.__pwned=1</script>"]
MALFORMED = ["%", "%zz", "%E0%A4%A", "%ED%A0%80", "%00", "&&&", "==", "#", "problem", "moves=;;;;", "moves=:::",
             "crossed=,,,,", "out=A", "problem=%23", "ask=best&ask=best", "problem=&moves=211"]


@cache
def every_class() -> dict[str, list[str]]:
    """A few characters of every Unicode general category (surrogates as their UTF-8 escapes)."""
    by: dict[str, list[str]] = {}
    for cp in range(0, sys.maxunicode + 1, 7):
        by.setdefault(unicodedata.category(chr(cp)), []).append(chr(cp))
    return {cat: chars[:: max(1, len(chars) // 12)][:12] for cat, chars in by.items() if cat != "Cs"}


def garbage(rng: random.Random) -> str:
    """A string a fuzzer would type: payloads, escapes, characters of every class, long runs, mixed."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(PAYLOADS)
    if kind == 1:
        return rng.choice(MALFORMED)
    if kind == 2:
        chars = every_class()
        return "".join(rng.choice(chars[rng.choice(sorted(chars))]) for _ in range(rng.randrange(1, 12)))
    if kind == 3:
        return rng.choice("A1:;,/#%&=▲■●✓✗") * rng.randrange(50, 6000)
    if kind == 4:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 40)))
    return rng.choice(PAYLOADS) + garbage(rng)


def base_moves() -> str:
    machine, problem = Machine("classic"), parse_problem(BASE_PROBLEM)
    a = machine.ask(Code.parse("211"), problem.dealt[0])
    c = machine.ask(Code.parse("211"), problem.dealt[2])
    return f"211:A:{'pass' if a else 'fail'},C:{'pass' if c else 'fail'}"


def fragment_cases(rng: random.Random, moves: str) -> list[tuple[str, bool]]:
    """(fragment, whether the base game's two answers must still be there after it)."""
    base = f"#problem={quote(BASE_PROBLEM, safe='')}&moves={moves}"
    out: list[tuple[str, bool]] = []
    for _ in range(FRAGMENTS):
        g = garbage(rng)
        kind = rng.randrange(7)
        if kind == 0:  # a garbage part beside the game's
            key = rng.choice(["crossed", "out", "objective", "guess", "stacks", "ask", "x", g[:8]])
            keeps = "&moves=" not in g and not any(word in key for word in ("problem", "moves", "#"))
            out.append((f"{base}&{key}={quote(g) if rng.random() < 0.5 else g}", keeps))
        elif kind == 1:  # garbage rounds after the game's
            out.append((f"{base};{quote(g) if rng.random() < 0.5 else g}", True))
        elif kind == 2:  # garbage answers in the game's round
            out.append((f"{base},{g}", "&" not in g and "#" not in g))
        elif kind == 3:  # another problem, garbage: the game on the page stays
            out.append((f"#problem={quote(g) if rng.random() < 0.5 else g}", False))
        elif kind == 4:  # raw garbage as the whole fragment
            out.append(("#" + g, False))
        elif kind == 5:  # garbage marks
            out.append((f"{base}&crossed={g}&out={g}", "&" not in g and "#" not in g))
        else:
            out.append((base + "&" + "&".join(rng.choice(MALFORMED) for _ in range(rng.randrange(1, 6))), False))
    return out


FUZZ_FRAGMENTS = """async ([cases, base, viaAddress]) => {
  const failures = [];
  const problem = () => document.getElementById('game-state').dataset.problem;
  for (let i = 0; i < cases.length; i++) {
    const [fragment, keeps] = cases[i];
    await tmphysApp.show(base);
    if (i < viaAddress) {
      const seen = new Promise((r) => window.addEventListener('hashchange', r, {once: true}));
      location.hash = fragment;
      await Promise.race([seen, new Promise((r) => setTimeout(r, 200))]);
      await null;
    } else {
      await tmphysApp.show(fragment);
    }
    const rounds = tmphysApp.state().rounds;
    if (window.__pwned) failures.push(['script ran', fragment]);
    if (!problem()) failures.push(['game lost', fragment]);
    if (keeps && !(rounds.length && rounds[0].proposal === '211' && rounds[0].answers.length >= 2))
      failures.push(['answers lost', fragment]);
  }
  return failures;
}"""


def test_no_fragment_runs_a_script_or_loses_the_game(browser, table_page) -> None:
    rng = random.Random(2026)
    moves = base_moves()
    cases = fragment_cases(rng, moves)
    page = browser.new_page(viewport={"width": 360, "height": 740})
    errors, violations = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    base = f"#problem={quote(BASE_PROBLEM, safe='')}&moves={moves}"
    page.goto(table_page.as_uri() + base)
    page.wait_for_selector("body[data-ready=true]")
    failures = page.evaluate(FUZZ_FRAGMENTS, [cases, base, THROUGH_ADDRESS])
    assert not failures, failures[:5]
    assert not errors, errors[:5]
    assert not violations, violations[:3]
    assert page.evaluate("() => window.__pwned") is None
    assert sum(keeps for _, keeps in cases) > 800  # the state was checked, not only the absence of errors
    page.close()


FUZZ_TYPED = """async ([typed]) => {
  const $ = (id) => document.getElementById(id);
  const failures = [];
  for (const text of typed) {
    $('problem-input').value = text;
    $('open-problem').click();
    $('guess-input').value = text;
    $('guess-go').click();
    for (const input of document.querySelectorAll('#form-verifiers input')) input.value = text.slice(0, 5);
    $('form-open').click();
    if (window.__pwned) failures.push(['script ran', text]);
    if (!document.getElementById('game-state').dataset.problem) failures.push(['game lost', text]);
    if ($('setup-error').textContent.length > 600) failures.push(['long message', text]);
  }
  return failures;
}"""


def test_no_typed_string_runs_a_script_or_loses_the_game(browser, table_page) -> None:
    rng = random.Random(27)
    typed = [garbage(rng) for _ in range(TYPED)]
    page = browser.new_page(viewport={"width": 360, "height": 740})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(table_page.as_uri() + f"#problem={quote(BASE_PROBLEM, safe='')}")
    page.wait_for_selector("body[data-ready=true]")
    failures = page.evaluate(FUZZ_TYPED, [typed])
    assert not failures, failures[:5]
    assert not errors, errors[:5]
    assert page.evaluate("() => window.__pwned") is None
    page.close()
