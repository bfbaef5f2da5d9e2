"""Solving: deduction over hidden assignments, the compiled optimal search, the reference solver, strategies."""
