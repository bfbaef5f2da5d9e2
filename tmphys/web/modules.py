"""The pages' scripts are ES modules (``import``/``export`` between the files of ``web/static/``, which Node imports as
they are: tests/js/); a page opened from ``file://`` cannot load a sibling file, so this inliner resolves them into one
classic script.

Each module becomes a function scope, run once, in dependency order (each file after the files it imports), that
returns its exports; a module's imports are taken from the scopes run before it. The forms read are the few the
scripts use, and anything else is refused rather than guessed at:

- ``import { a, b as c } from "./file.js";`` and ``import * as name from "./file.js";`` (sibling files only);
- ``export function``/``export async function``/``export class``/``export const`` at the start of a line, and
  ``export { a, b as c };``.

``export let``/``export var`` and ``export default`` are refused: the scopes hand over values, so a binding that is
reassigned would not be seen changing (modules share changing state through objects instead), and an import cycle is
refused, as a file that imports another needs it run first. Same files, same script, byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

IMPORT = re.compile(r'^import\s+(?:\{([^}]*)\}|\*\s+as\s+([A-Za-z_$][\w$]*))\s+from\s+"\./([\w.-]+\.js)";?[ \t]*$',
                    re.MULTILINE)
EXPORT_DECL = re.compile(r"^export\s+(?=(?:async\s+function\*?|function\*?|class|const)\s)", re.MULTILINE)
DECLARED = re.compile(r"(?:async\s+)?(?:function\*?|class|const)\s+([A-Za-z_$][\w$]*)")
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};?[ \t]*$", re.MULTILINE)
ANY_IMPORT = re.compile(r"^\s*import[\s{*'\"]", re.MULTILINE)
ANY_EXPORT = re.compile(r"^\s*export\b", re.MULTILINE)
NAME = re.compile(r"[A-Za-z_$][\w$]*$")


class ModuleError(ValueError):
    """A script the inliner cannot resolve: a form it does not read, a missing file, a cycle."""


def _names(listed: str, where: str) -> list[tuple[str, str]]:
    """``a, b as c`` as [(a, a), (b, c)]."""
    out = []
    for item in (part.strip() for part in listed.split(",")):
        if not item:
            continue
        words = item.split()
        if len(words) == 1 and NAME.match(words[0]):
            out.append((words[0], words[0]))
        elif len(words) == 3 and words[1] == "as" and NAME.match(words[0]) and NAME.match(words[2]):
            out.append((words[0], words[2]))
        else:
            raise ModuleError(f"{where}: cannot read {item!r} in an import or export list")
    return out


def _scope(name: str) -> str:
    return "$module_" + re.sub(r"\W", "_", name.removesuffix(".js"))


def _parse(name: str, source: str) -> tuple[list[tuple[str, str]], str, list[str]]:
    """A module's imports [(file, binding line)], its body without import/export syntax, its exports (names)."""
    imports: list[tuple[str, str]] = []

    def take_import(m: re.Match) -> str:
        listed, star, file = m.groups()
        if star:
            imports.append((file, f"const {star} = {_scope(file)};"))
        else:
            pairs = _names(listed, name)
            inner = ", ".join(a if a == b else f"{a}: {b}" for a, b in pairs)
            imports.append((file, f"const {{ {inner} }} = {_scope(file)};"))
        return ""

    body = IMPORT.sub(take_import, source)
    exports: list[str] = []

    def take_list(m: re.Match) -> str:
        exports.extend(f"{b}: {a}" if a != b else a for a, b in _names(m.group(1), name))
        return ""

    body = EXPORT_LIST.sub(take_list, body)
    for m in EXPORT_DECL.finditer(body):
        declared = DECLARED.match(body, m.end())
        if not declared:
            raise ModuleError(f"{name}: cannot read the export at {body[m.start():m.start() + 40]!r}")
        exports.append(declared.group(1))
    body = EXPORT_DECL.sub("", body)
    left = ANY_IMPORT.search(body) or ANY_EXPORT.search(body)
    if left:
        line = body[left.start():].strip().splitlines()[0]
        raise ModuleError(f"{name}: a form the inliner does not read (export let/var/default, or an import from "
                          f"elsewhere than a sibling file): {line[:80]!r}")
    return imports, body, exports


def bundle(entries: Iterable[str], read: Callable[[str], str], expose: dict[str, str] | None = None) -> str:
    """One classic script that runs the modules ``entries`` import (each once, dependencies first) and then the
    entries; ``read``: a file's text by name; ``expose``: global name → file, each bound to that module's exports
    (for a page's own inline script after this one)."""
    order: list[str] = []
    parsed: dict[str, tuple[list[tuple[str, str]], str, list[str]]] = {}
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        if name in visiting:
            raise ModuleError("an import cycle: " + " → ".join([*visiting[visiting.index(name):], name]))
        visiting.append(name)
        if name not in parsed:
            try:
                source = read(name)
            except FileNotFoundError as e:
                raise ModuleError(f"{visiting[-2] if len(visiting) > 1 else 'the page'} imports {name}, "
                                  "which is not there") from e
            parsed[name] = _parse(name, source)
        for dep, _ in parsed[name][0]:
            visit(dep)
        visiting.pop()
        order.append(name)

    for entry in entries:
        visit(entry)
    out = ['"use strict";']
    for name in order:
        imports, body, exports = parsed[name]
        head = "".join(line + "\n" for _, line in imports)
        returned = "{ " + ", ".join(exports) + " }" if exports else "{}"
        out.append(f"// ---- {name}\nconst {_scope(name)} = (() => {{\n{head}{body.strip()}\n"
                   f"return Object.freeze({returned});\n}})();")
    for global_name, name in (expose or {}).items():
        if name not in order:
            raise ModuleError(f"{global_name}: {name} is not among the modules bundled")
        out.append(f"self.{global_name} = {_scope(name)};")
    return "\n".join(out) + "\n"
