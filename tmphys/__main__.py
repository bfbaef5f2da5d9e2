"""``python -m tmphys``: the same as the ``tmphys`` command."""

from .cli import main

main()
