"""The ``tmphys`` command line: thin click commands that parse options, call one function elsewhere and print.

Ctrl-C while the command loads is quiet from the first line of tmphys that runs (``tmphys/__init__.py``)."""

from tmphys.cli.main import main

__all__ = ["main"]
