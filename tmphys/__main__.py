"""``python -m tmphys``: the same as the ``tmphys`` command."""

from tmphys.cli.main import main

if __name__ == "__main__":  # not when a second process of ``solve`` imports this module
    main()
