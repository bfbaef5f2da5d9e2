"""The search core's C reads file by file: no file over 1,000 lines, and no cycle among the files that call each other.

The call graph is drawn from the text: a file depends on another when it names a function defined (not static) there.
Comments, strings and preprocessor lines are left out, and a macro standing for a function (``#define fail tm_fail``)
counts as that function. Static functions, and the inline helpers of the core's headers, are no edge.
"""

from __future__ import annotations

import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "tmphys" / "solve" / "core"
MOST_LINES = 1000

COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRINGS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
DIRECTIVES = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\w+)[ \t]*$", re.M)
#: a macro that stands for an attribute (``EXPORT(name)``), put before a definition
ATTRIBUTE_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\([^)]*\)[ \t]+__attribute__", re.M)
ATTRIBUTES = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)[ \t]*")
#: a definition's head: from the start of a line, at file level, to the `)` before its body's `{`
DEFINITION = re.compile(r"^(?=[A-Za-z_])[^;{}]*?\)\s*\{", re.M)
NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def code_of(text: str) -> str:
    """The C without comments, strings, preprocessor lines and attributes."""
    text = COMMENTS.sub(" ", text)
    code = DIRECTIVES.sub("", STRINGS.sub('""', text))
    for macro in ATTRIBUTE_MACRO.findall(text):
        code = re.sub(rf"\b{macro}\s*\([^()]*\)[ \t]*", "", code)
    return ATTRIBUTES.sub("", code)


def at_file_level(code: str, start: int) -> bool:
    """Whether `start` lies outside every brace pair (a definition, not a statement in a body)."""
    return code.count("{", 0, start) == code.count("}", 0, start)


def definitions(code: str) -> tuple[set[str], set[str]]:
    """The functions a file defines: those other files may call, and its static ones."""
    public, private = set(), set()
    for match in DEFINITION.finditer(code):
        if not at_file_level(code, match.start()):
            continue
        head = match.group(0)
        name = NAME.search(head)
        if name and name.group(1) not in {"if", "for", "while", "switch", "return", "sizeof"}:
            (private if re.search(r"\bstatic\b", head[: name.start()]) else public).add(name.group(1))
    return public, private


def call_graph(folder: Path) -> dict[str, set[str]]:
    """Each .c file of the folder and the other .c files whose functions it names."""
    texts = {p.name: p.read_text("utf-8") for p in sorted(folder.glob("*.[ch]"))}
    aliases = {a: b for text in texts.values() for a, b in ALIAS.findall(COMMENTS.sub(" ", text))}
    code = {name: code_of(text) for name, text in texts.items() if name.endswith(".c")}
    defined = {name: definitions(c) for name, c in code.items()}
    owner = {f: name for name, (public, _) in defined.items() for f in public}
    graph = {}
    for name, c in code.items():
        own = defined[name][0] | defined[name][1]
        words = {aliases.get(w, w) for w in WORD.findall(c)} - own
        graph[name] = {owner[w] for w in words if w in owner} - {name}
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph as the files along it, first file repeated at the end; [] if there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return []
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for node in sorted(graph):
        found = visit(node)
        if found:
            return found
    return []


def test_every_core_file_is_under_a_thousand_lines() -> None:
    """A reader takes in each file of the core whole: every .c and .h under 1,000 lines."""
    lines = {p.name: len(p.read_text("utf-8").splitlines()) for p in sorted(CORE.glob("*.[ch]"))}
    long = {name: n for name, n in lines.items() if n >= MOST_LINES}
    assert not long


def test_the_core_files_call_each_other_without_a_cycle() -> None:
    """Each file can be read knowing only the files below it: the file-level call graph is acyclic."""
    graph = call_graph(CORE)
    assert "setup.c" in graph and len(graph) > 2
    assert cycle_in(graph) == []


def test_the_call_graph_is_read_from_the_text(tmp_path: Path) -> None:
    """The graph finds calls across files (through a macro too), leaves static functions and comments out, and a
    cycle is found."""
    (tmp_path / "a.c").write_text('/* b_only() */\nstatic int mine(int x) { return x; }\n#define go b_go\n'
                                  'int a_go(void) { return go() + mine(1); }\n', "utf-8")
    (tmp_path / "b.c").write_text('static int mine(int x) { return x; }\nint b_go(void) { return mine(2); }\n'
                                  'static __attribute__((noinline)) int\nb_later(void) { return a_go(); }\n', "utf-8")
    (tmp_path / "c.c").write_text('#define EXPORT(name) __attribute__((export_name(#name)))\n'
                                  'EXPORT(go) int c_go(void) { const char *s = "a_go()"; return s[0]; }\n', "utf-8")
    graph = call_graph(tmp_path)
    assert graph == {"a.c": {"b.c"}, "b.c": {"a.c"}, "c.c": set()}
    assert definitions(code_of((tmp_path / "c.c").read_text("utf-8"))) == ({"c_go"}, set())
    assert cycle_in(graph) == ["a.c", "b.c", "a.c"]
    assert cycle_in({"a.c": {"b.c"}, "b.c": set(), "c.c": {"a.c", "b.c"}}) == []
