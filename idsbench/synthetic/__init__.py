"""Synthetic IDS documents: documents (minimal documents from a few strings), corpus (typical LLM
outputs derived from the golds) and mutations (seeded edits for fuzzing)."""
