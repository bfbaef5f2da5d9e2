"""Build step for the compiled search (the C core in tmphys/solve/core/ and its CPython binding,
tmphys/solve/_engine.c); everything else is declared in pyproject.toml.

The extension is optional: where no C compiler is found, the install goes on and tmphys searches in Python (the same
values, several times slower; ``tests/test_engine.py`` fails there, so CI notices)."""

import platform

from setuptools import Extension, setup

# every x86-64 processor since 2008 counts bits in one instruction; without the flag gcc calls a library routine
flags = ["-O3", "-std=c11"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

# the core's files, each calling those before it only (tmphys/solve/core/core.h says what each holds)
core = [f"tmphys/solve/core/{name}.c" for name in
        ("util", "setup", "memo", "bounds", "canon", "limits", "ranking", "deep", "search", "engine", "query")]
engine = Extension("tmphys.solve._engine", ["tmphys/solve/_engine.c", *core], extra_compile_args=flags,
                   depends=["tmphys/solve/core/tm.h", "tmphys/solve/core/core.h"], optional=True)
setup(ext_modules=[engine])
