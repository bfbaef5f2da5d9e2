"""The ``tmphys`` command line: thin click commands that parse options, call one function elsewhere and print."""

from tmphys.cli.main import main

__all__ = ["main"]
