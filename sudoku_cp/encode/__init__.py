"""The encode layer: pure functions from a puzzle to a model (CNF for SAT solvers, CP-SAT models)."""
