"""Ishigaki-IDS-Bench scoring: Stage 1 IDS audit and Stage 2 facet scorer."""
