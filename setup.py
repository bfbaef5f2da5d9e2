"""Build step for the compiled search (tmphys/_engine.c); everything else is declared in pyproject.toml."""

import platform

from setuptools import Extension, setup

# every x86-64 processor since 2008 counts bits in one instruction; without the flag gcc calls a library routine
flags = ["-O2", "-std=c11"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])

setup(ext_modules=[Extension("tmphys._engine", ["tmphys/_engine.c"], extra_compile_args=flags)])
