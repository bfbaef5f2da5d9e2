"""The game itself: codes, the criteria library, problems (Classic, Extreme, Nightmare) and their generator."""
